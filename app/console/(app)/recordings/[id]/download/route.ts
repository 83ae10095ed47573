import { recordingFile } from '@/lib/domain/recordings';
import { attachmentResponse } from '@/lib/http/download';
import { tenantDownload } from '@/lib/console/download';

// The console's download link: the signed-in user's tenant, the API's own download rules.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return tenantDownload({
    what: 'download recordings',
    params,
    respond: async (tenant, { id }) => attachmentResponse(await recordingFile(tenant, id)),
  });
}
