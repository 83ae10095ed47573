import { route, auth } from '@/lib/http/route';
import { getCall } from '@/lib/domain/calls';
import { callResponse } from '@/lib/domain/calls.schemas';

export const GET = route(
  { tag: 'Calls', summary: 'Get a call with its room', auth: auth.tenant('calls.read'), response: callResponse },
  ({ auth, params }) => getCall(auth.tenant, params.id),
);
