import { route, auth } from '@/lib/http/route';
import { recordingFile } from '@/lib/domain/recordings';
import { attachmentResponse } from '@/lib/http/download';

// Streams the file to the tenant's backend (tenant key); no public URL exists.
export const GET = route(
  {
    tag: 'Recordings',
    summary: 'Download the file (streamed)',
    auth: auth.tenant('media.read'),
    produces: ['video/mp4', 'audio/ogg'],
  },
  async ({ auth, params }) => attachmentResponse(await recordingFile(auth.tenant, params.id)),
);
