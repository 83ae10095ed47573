import { route, auth } from '@/lib/http/route';
import { metricsResponse } from '@/lib/domain/observability';

export const GET = route({ auth: auth.none, produces: ['text/plain'] }, ({ req }) => metricsResponse(req.headers.get('authorization')));
