import { chatCsv } from '@/lib/domain/chat';
import { csvAttachment, tenantDownload } from '@/lib/console/download';
import { parseActionId } from '@/lib/console/action-input';

// The console's chat export as CSV: the same messages as GET /api/v1/rooms/{id}/chat.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return tenantDownload('download the chat', async (tenant) => {
    // An id that cannot be ours (a NUL, say) is not found, as an unknown one is: never a database error.
    const id = parseActionId((await params).id);
    return csvAttachment(await chatCsv(tenant, id), `chat-${id}.csv`);
  });
}
