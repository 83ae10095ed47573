import { tenantDownload } from '@/lib/console/download';
import { transcriptDownload } from '@/lib/domain/transcript-reads';

// The console's transcript downloads (vtt, srt, txt, json): the signed-in user's tenant, the API's rules.
export async function GET(
  _req: Request,
  { params }: { params: Promise<{ id: string; sessionId: string; transcriptId: string; format: string }> },
) {
  return tenantDownload({
    what: 'download the transcript',
    params,
    respond: (tenant, { transcriptId, format }) => transcriptDownload(tenant, transcriptId, format),
  });
}
