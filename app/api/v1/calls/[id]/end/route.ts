import { route, auth } from '@/lib/http/route';
import { endCall } from '@/lib/domain/calls';
import { callActorInput } from '@/lib/domain/engagement.schemas';
import { callResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('calls.write'), body: callActorInput, response: callResponse },
  ({ auth, params }) => endCall(auth.tenant, params.id),
);
