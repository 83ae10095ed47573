import type { z } from 'zod';
import type { connectionTestResponse } from '@/lib/domain/quality.schemas';

/** POST /api/v1/me/connection-test's answer, typed with the server's own schema (types only: nothing server-side reaches the page). */
export type ConnectionTestResponse = z.output<typeof connectionTestResponse>;
