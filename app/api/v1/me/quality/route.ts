import { route, auth } from '@/lib/http/route';
import { reportQuality } from '@/lib/domain/quality';
import { QUALITY_REPORT_MAX_BYTES } from '@/lib/domain/quality-limits';
import { qualityReportInput, qualityReportResponse } from '@/lib/domain/quality.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: `Report call-quality samples (the call’s WebRTC statistics; participant token, at most ${QUALITY_REPORT_MAX_BYTES / 1024} KB)`,
    auth: auth.participant,
    body: qualityReportInput,
    maxBodyBytes: QUALITY_REPORT_MAX_BYTES,
    status: 201,
    response: qualityReportResponse,
  },
  ({ auth, body }) => reportQuality(auth, body),
);
