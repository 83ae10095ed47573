import { route, auth } from '@/lib/http/route';
import { deleteIngress, getIngress } from '@/lib/domain/ingress';
import { ingressResponse } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('media.read'), response: ingressResponse }, ({ auth, params }) =>
  getIngress(auth.tenant, params.id),
);

export const DELETE = route({ auth: auth.tenant('media.write'), response: ingressResponse }, ({ auth, params }) =>
  deleteIngress(auth.tenant, params.id),
);
