import { route, auth } from '@/lib/http/route';
import { createIngress } from '@/lib/domain/ingress';
import { ingressCreateInput } from '@/lib/domain/media-features.schemas';

export const POST = route({ auth: auth.tenant('media.write'), body: ingressCreateInput, status: 201 }, ({ auth, body }) => createIngress(auth.tenant, body));
