import { route, auth } from '@/lib/http/route';
import { createIngress } from '@/lib/domain/ingress';
import { ingressCreateInput, ingressResponse } from '@/lib/domain/ingress.schemas';

export const POST = route(
  {
    tag: 'Ingress',
    summary: 'Create an RTMP or WHIP ingress',
    auth: auth.tenant('media.write'),
    body: ingressCreateInput,
    status: 201,
    response: ingressResponse,
  },
  ({ auth, body }) => createIngress(auth.tenant, body),
);
