import { route, auth } from '@/lib/http/route';
import { endCall } from '@/lib/domain/calls';
import { callActorInput, callResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'End an accepted call',
    auth: auth.tenant('calls.write'),
    body: callActorInput,
    response: callResponse,
  },
  ({ auth, params }) => endCall(auth.tenant, params.id),
);
