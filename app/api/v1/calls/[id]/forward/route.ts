import { route, auth } from '@/lib/http/route';
import { forwardCall } from '@/lib/domain/calls';
import { callForwardInput, callResponse } from '@/lib/domain/calls.schemas';

export const POST = route(
  {
    tag: 'Calls',
    summary: 'Forward to another agent',
    auth: auth.tenant('calls.write'),
    body: callForwardInput,
    response: callResponse,
  },
  ({ auth, params, body }) => forwardCall(auth.tenant, params.id, body),
);
