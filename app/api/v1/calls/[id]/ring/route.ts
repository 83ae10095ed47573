import { route, auth } from '@/lib/http/route';
import { ringCall } from '@/lib/domain/calls';
import { callRingInput, callResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'Offer the call to an agent',
    auth: auth.tenant('calls.write'),
    body: callRingInput,
    response: callResponse,
  },
  ({ auth, params, body }) => ringCall({ tenant: auth.tenant, id: params.id, input: body }),
);
