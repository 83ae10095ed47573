import { route, auth } from '@/lib/http/route';
import { getSummarySettings, putSummarySettings } from '@/lib/domain/summaries';
import { summarySettingsInput, summarySettingsResponse } from '@/lib/domain/summaries.schemas';

export const GET = route(
  {
    tag: 'Recordings',
    summary: 'The summary a completed transcript gets (kind and instruction)',
    auth: auth.tenant('media.read'),
    response: summarySettingsResponse,
  },
  ({ auth }) => getSummarySettings(auth.tenant),
);

export const PUT = route(
  {
    tag: 'Recordings',
    summary: 'Choose the summary a completed transcript gets',
    auth: auth.tenant('media.write'),
    body: summarySettingsInput,
    response: summarySettingsResponse,
  },
  ({ auth, body }) => putSummarySettings(auth.tenant, body),
);
