import { route, auth } from '@/lib/http/route';
import { listApiKeys } from '@/lib/domain/keys';

export const GET = route({ auth: auth.tenant('tenant.read') }, ({ auth }) => listApiKeys(auth.tenant.id));
