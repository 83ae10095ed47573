import { route, auth } from '@/lib/http/route';
import { missCall } from '@/lib/domain/calls';
import { callActorInput, callResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'Mark a waiting call missed',
    auth: auth.tenant('calls.write'),
    body: callActorInput,
    response: callResponse,
  },
  ({ auth, params }) => missCall(auth.tenant, params.id),
);
