import { route, auth } from '@/lib/http/route';
import { getCall } from '@/lib/domain/calls';

export const GET = route({ auth: auth.tenant('calls.read') }, ({ auth, params }) => getCall(auth.tenant, params.id));
