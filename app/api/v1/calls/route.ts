import { route, auth } from '@/lib/http/route';
import { createCall, listCalls } from '@/lib/domain/calls';
import { callCreateInput, callListQuery, callPage, callResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'Queue a call',
    auth: auth.tenant('calls.write'),
    body: callCreateInput,
    status: 201,
    response: callResponse,
  },
  ({ auth, body }) => createCall(auth.tenant, body),
);

export const GET = route(
  {
    tag: 'Calls',
    summary: 'List calls, next up first',
    auth: auth.tenant('calls.read'),
    query: callListQuery,
    response: callPage,
  },
  ({ auth, query }) => listCalls(auth.tenant, query),
);
