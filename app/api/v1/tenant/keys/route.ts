import { route, auth } from '@/lib/http/route';
import { listApiKeys } from '@/lib/domain/keys';
import { apiKeyPage } from '@/lib/domain/responses.schemas';

export const GET = route({ auth: auth.tenant('tenant.read'), response: apiKeyPage }, ({ auth }) => listApiKeys(auth.tenant.id));
