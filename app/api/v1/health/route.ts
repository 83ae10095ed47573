import { route, auth } from '@/lib/http/route';
import { checkHealth } from '@/lib/domain/health';
import { healthResponse } from '@/lib/domain/health.schemas';

export const dynamic = 'force-dynamic';

export const GET = route(
  { tag: 'Operations', summary: 'Health: the database answers', auth: auth.none, response: healthResponse },
  () => checkHealth(),
);
