import { route, auth } from '@/lib/http/route';
import { forwardCall } from '@/lib/domain/calls';
import { callForwardInput } from '@/lib/domain/engagement.schemas';
import { callResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('calls.write'), body: callForwardInput, response: callResponse },
  ({ auth, params, body }) => forwardCall(auth.tenant, params.id, body),
);
