import { attendanceCsv } from '@/lib/domain/sessions';
import { csvAttachment, tenantDownload } from '@/lib/console/download';
import { parseActionId } from '@/lib/console/action-input';

// The console's attendance download: the signed-in user's tenant, the API's own session rules.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string; sessionId: string }> }) {
  return tenantDownload('download attendance', async (tenant) => {
    // An id that cannot be ours (a NUL, say) is not found, as an unknown one is: never a database error.
    const sessionId = parseActionId((await params).sessionId);
    return csvAttachment(await attendanceCsv(tenant, sessionId), `attendance-${sessionId}.csv`);
  });
}
