import { route, auth } from '@/lib/http/route';
import { listRecordings } from '@/lib/domain/recordings';
import { recordingListQuery } from '@/lib/domain/media-features.schemas';
import { recordingPage } from '@/lib/domain/responses.schemas';

export const GET = route(
  { auth: auth.tenant('media.read'), query: recordingListQuery, response: recordingPage },
  ({ auth, query }) => listRecordings(auth.tenant, query),
);
