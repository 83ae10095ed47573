import { getServerSession } from 'next-auth';
import { authOptions } from '@/lib/console/auth';
import { consoleActor, tenantOf } from '@/lib/domain/console';
import { chatCsv } from '@/lib/domain/chat';
import { ApiError } from '@/lib/errors';

// The console's chat export as CSV: the same messages as GET /api/v1/rooms/{id}/chat.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const session = await getServerSession(authOptions);
  const actor = await consoleActor((session?.user as { id?: string } | undefined)?.id ?? '');
  if (!actor) return new Response('Sign in to download the chat.', { status: 401 });
  try {
    const { id } = await params;
    const csv = await chatCsv(tenantOf(actor), id);
    return new Response(csv, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="chat-${id}.csv"`,
      },
    });
  } catch (err) {
    if (err instanceof ApiError) return new Response(err.message, { status: err.status });
    throw err;
  }
}
