import { route, auth } from '@/lib/http/route';
import { deleteIngress, getIngress } from '@/lib/domain/ingress';

export const GET = route({ auth: auth.tenant('media.read') }, ({ auth, params }) => getIngress(auth.tenant, params.id));

export const DELETE = route({ auth: auth.tenant('media.write') }, ({ auth, params }) => deleteIngress(auth.tenant, params.id));
