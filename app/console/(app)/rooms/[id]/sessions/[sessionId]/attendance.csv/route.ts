import { attendanceCsv } from '@/lib/domain/attendance';
import { csvAttachment, tenantDownload } from '@/lib/console/download';

// The console's attendance download: the signed-in user's tenant, the API's own session rules.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string; sessionId: string }> }) {
  return tenantDownload({
    what: 'download attendance',
    params,
    respond: async (tenant, { sessionId }) =>
      csvAttachment(await attendanceCsv(tenant, sessionId), `attendance-${sessionId}.csv`),
  });
}
