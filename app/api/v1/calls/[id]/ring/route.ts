import { route, auth } from '@/lib/http/route';
import { ringCall } from '@/lib/domain/calls';
import { callRingInput } from '@/lib/domain/engagement.schemas';
import { callResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('calls.write'), body: callRingInput, response: callResponse },
  ({ auth, params, body }) => ringCall(auth.tenant, params.id, body),
);
