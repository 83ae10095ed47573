import { route, auth } from '@/lib/http/route';
import { paginationQuery } from '@/lib/domain/pagination';
import { createBreakout, listBreakouts } from '@/lib/domain/breakouts';
import { breakoutCreateInput, breakoutPage, breakoutResponse } from '@/lib/domain/breakouts.schemas';

export const POST = route(
  {
    tag: 'Breakouts',
    summary: 'Create a breakout',
    auth: auth.tenant('rooms.write'),
    body: breakoutCreateInput,
    status: 201,
    response: breakoutResponse,
  },
  ({ auth, params, body }) => createBreakout(auth.tenant, params.id, body),
);

export const GET = route(
  {
    tag: 'Breakouts',
    summary: 'List breakouts',
    auth: auth.tenant('rooms.read'),
    query: paginationQuery,
    response: breakoutPage,
  },
  ({ auth, params, query }) => listBreakouts(auth.tenant, params.id, query),
);
