import { route, auth } from '@/lib/http/route';
import { checkHealth } from '@/lib/domain/health';
import { healthResponse } from '@/lib/domain/responses.schemas';

export const dynamic = 'force-dynamic';

export const GET = route({ auth: auth.none, response: healthResponse }, () => checkHealth());
