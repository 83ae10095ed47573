import { route, auth } from '@/lib/http/route';
import { checkHealth } from '@/lib/domain/health';

export const dynamic = 'force-dynamic';

export const GET = route({ auth: auth.none }, () => checkHealth());
