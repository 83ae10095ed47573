import { chatCsv } from '@/lib/domain/chat';
import { csvAttachment, tenantDownload } from '@/lib/console/download';

// The console's chat export as CSV: the same messages as GET /api/v1/rooms/{id}/chat.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return tenantDownload({
    what: 'download the chat',
    params,
    respond: async (tenant, { id }) => csvAttachment(await chatCsv(tenant, id), `chat-${id}.csv`),
  });
}
