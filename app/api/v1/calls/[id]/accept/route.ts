import { route, auth } from '@/lib/http/route';
import { acceptCall } from '@/lib/domain/calls';
import { callAcceptInput, callAcceptedResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'Accept: create the room and both tokens',
    auth: auth.tenant('calls.write'),
    body: callAcceptInput,
    response: callAcceptedResponse,
  },
  ({ auth, params, body }) => acceptCall({ tenant: auth.tenant, id: params.id, input: body }),
);
