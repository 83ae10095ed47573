import { db } from '@/lib/db';
import { ApiError } from '@/lib/errors';

/** Liveness and readiness in one: the database must answer. */
export async function checkHealth() {
  try {
    await db().$queryRaw`SELECT 1`;
  } catch {
    throw new ApiError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
  }
  return { status: 'ok', database: 'ok', time: new Date().toISOString() };
}
