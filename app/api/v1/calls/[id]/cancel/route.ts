import { route, auth } from '@/lib/http/route';
import { cancelCall } from '@/lib/domain/calls';
import { callActorInput, callResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'Cancel a waiting call',
    auth: auth.tenant('calls.write'),
    body: callActorInput,
    response: callResponse,
  },
  ({ auth, params }) => cancelCall(auth.tenant, params.id),
);
