import { signedInActor } from '@/lib/console/session';
import { tenantOf } from '@/lib/domain/console';
import { liveRoom } from '@/lib/domain/live-room';
import { ApiError } from '@/lib/errors';
import { assertPathIds } from '@/lib/http/body';

// The live view's poll: the signed-in user's tenant, the room as it is now (lib/domain/live-room.ts).
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const actor = await signedInActor();
  if (!actor) return new Response('Sign in to see the room.', { status: 401 });
  try {
    const { id } = await params;
    assertPathIds({ id });
    return Response.json(await liveRoom(tenantOf(actor), id), { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    if (err instanceof ApiError) return new Response(err.message, { status: err.status });
    throw err;
  }
}
