import { route, auth } from '@/lib/http/route';
import { createCall, listCalls } from '@/lib/domain/calls';
import { callCreateInput, callListQuery } from '@/lib/domain/engagement.schemas';
import { callPage, callResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('calls.write'), body: callCreateInput, status: 201, response: callResponse },
  ({ auth, body }) => createCall(auth.tenant, body),
);

export const GET = route(
  { auth: auth.tenant('calls.read'), query: callListQuery, response: callPage },
  ({ auth, query }) => listCalls(auth.tenant, query),
);
