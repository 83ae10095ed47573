import { route, auth } from '@/lib/http/route';
import { acceptCall } from '@/lib/domain/calls';
import { callAcceptInput } from '@/lib/domain/engagement.schemas';
import { callAcceptedResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('calls.write'), body: callAcceptInput, response: callAcceptedResponse },
  ({ auth, params, body }) => acceptCall(auth.tenant, params.id, body),
);
