import { route, auth } from '@/lib/http/route';
import { getCall } from '@/lib/domain/calls';
import { callResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('calls.read'), response: callResponse }, ({ auth, params }) =>
  getCall(auth.tenant, params.id),
);
