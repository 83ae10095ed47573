import { route, auth } from '@/lib/http/route';
import { listRecordings } from '@/lib/domain/recordings';
import { recordingListQuery } from '@/lib/domain/media-features.schemas';

export const GET = route({ auth: auth.tenant('media.read'), query: recordingListQuery }, ({ auth, query }) => listRecordings(auth.tenant, query));
