import { route, auth } from '@/lib/http/route';
import { listRecordings } from '@/lib/domain/recordings';
import { recordingListQuery, recordingPage } from '@/lib/domain/recordings.schemas';

export const GET = route(
  {
    tag: 'Recordings',
    summary: 'List recordings',
    auth: auth.tenant('media.read'),
    query: recordingListQuery,
    response: recordingPage,
  },
  ({ auth, query }) => listRecordings(auth.tenant, query),
);
