import { route, auth } from '@/lib/http/route';
import { forwardCall } from '@/lib/domain/calls';
import { callForwardInput } from '@/lib/domain/engagement.schemas';

export const POST = route({ auth: auth.tenant('calls.write'), body: callForwardInput }, ({ auth, params, body }) => forwardCall(auth.tenant, params.id, body));
