import { route, auth } from '@/lib/http/route';
import { createIngress } from '@/lib/domain/ingress';
import { ingressCreateInput } from '@/lib/domain/media-features.schemas';
import { ingressResponse } from '@/lib/domain/responses.schemas';

export const POST = route(
  { auth: auth.tenant('media.write'), body: ingressCreateInput, status: 201, response: ingressResponse },
  ({ auth, body }) => createIngress(auth.tenant, body),
);
