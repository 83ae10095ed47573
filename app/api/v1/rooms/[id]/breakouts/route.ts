import { route, auth } from '@/lib/http/route';
import { createBreakout, listBreakouts } from '@/lib/domain/breakouts';
import { breakoutCreateInput } from '@/lib/domain/rooms.schemas';

export const POST = route({ auth: auth.tenant('rooms.write'), body: breakoutCreateInput, status: 201 }, ({ auth, params, body }) =>
  createBreakout(auth.tenant, params.id, body),
);

export const GET = route({ auth: auth.tenant('rooms.read') }, ({ auth, params }) => listBreakouts(auth.tenant, params.id));
