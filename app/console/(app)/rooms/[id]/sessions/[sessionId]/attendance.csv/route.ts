import { getServerSession } from 'next-auth';
import { authOptions } from '@/lib/console/auth';
import { consoleActor, tenantOf } from '@/lib/domain/console';
import { attendanceCsv } from '@/lib/domain/sessions';
import { ApiError } from '@/lib/errors';

// The console's attendance download: the signed-in user's tenant, the API's own session rules.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string; sessionId: string }> }) {
  const session = await getServerSession(authOptions);
  const actor = await consoleActor((session?.user as { id?: string } | undefined)?.id ?? '');
  if (!actor) return new Response('Sign in to download attendance.', { status: 401 });
  try {
    const { sessionId } = await params;
    const csv = await attendanceCsv(tenantOf(actor), sessionId);
    return new Response(csv, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="attendance-${sessionId}.csv"`,
      },
    });
  } catch (err) {
    if (err instanceof ApiError) return new Response(err.message, { status: err.status });
    throw err;
  }
}
