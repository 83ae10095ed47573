import { route, auth } from '@/lib/http/route';
import { createCall, listCalls } from '@/lib/domain/calls';
import { callCreateInput, callListQuery } from '@/lib/domain/engagement.schemas';

export const POST = route({ auth: auth.tenant('calls.write'), body: callCreateInput, status: 201 }, ({ auth, body }) => createCall(auth.tenant, body));

export const GET = route({ auth: auth.tenant('calls.read'), query: callListQuery }, ({ auth, query }) => listCalls(auth.tenant, query));
