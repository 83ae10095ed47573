import { route, auth } from '@/lib/http/route';
import { deleteIngress, getIngress } from '@/lib/domain/ingress';
import { ingressResponse } from '@/lib/domain/ingress.schemas';

export const GET = route(
  { tag: 'Ingress', summary: 'Get an ingress', auth: auth.tenant('media.read'), response: ingressResponse },
  ({ auth, params }) => getIngress(auth.tenant, params.id),
);

export const DELETE = route(
  { tag: 'Ingress', summary: 'Delete an ingress', auth: auth.tenant('media.write'), response: ingressResponse },
  ({ auth, params }) => deleteIngress(auth.tenant, params.id),
);
