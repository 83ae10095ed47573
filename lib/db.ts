import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, Prisma } from '@/lib/generated/prisma/client';
import { config } from '@/lib/config';
import { processState } from '@/lib/runtime/process-state';

export { Prisma };
// Convention (lib/domain, lib/events): a transaction travels as `tx` in a function's options object, its last or only
// parameter — required where the function must run inside the caller's transaction, optional where it can run alone.
export type Tx = Prisma.TransactionClient;

const pool = processState('db', () => ({
  client: undefined as PrismaClient | undefined,
  pg: undefined as pg.Pool | undefined,
}));

/** One client, and so one connection pool, per process. */
export function db(): PrismaClient {
  if (!pool.client) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = config();
    // The pool is ours, so the hot paths (join, room creation) can run one plain statement on it
    // without Prisma's per-query cost (sql() below); Prisma shares the same connections.
    pool.pg = new pg.Pool({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE });
    pool.pg.on('error', () => undefined); // an idle connection dropped (database restart): the pool replaces it
    const adapter = new PrismaPg(pool.pg, { disposeExternalPool: true });
    // Joins and votes lock a row and queue behind each other under load: give waiting
    // transactions time to get a connection rather than failing the request.
    pool.client = new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 15_000 } });
  }
  return pool.client;
}

/** The same pool, for a single raw statement on a hot path (node-postgres parameters $1, $2, ...). */
export function sql(): pg.Pool {
  db();
  return pool.pg!;
}

/**
 * A database that cannot be reached or dropped the connection mid-query (restart, failover, pool
 * exhausted): the request is answered 503 (retry), never 500. Covers Prisma's codes and the
 * errors node-postgres raises on the raw pool.
 */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if (err instanceof Prisma.PrismaClientKnownRequestError && PRISMA_UNREACHABLE.has(err.code)) return true;
  if (!(err instanceof Error)) return false;
  // Prisma reports a server-side error with its SQLSTATE in the message (P2010, P2039, ...).
  if (/Code: `(08\d{3}|57P0[123])`/.test(err.message)) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now).
    if (NETWORK_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
  }
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    err.message,
  );
}

export async function disconnectDb(): Promise<void> {
  const client = pool.client;
  const pgPool = pool.pg;
  pool.client = undefined;
  pool.pg = undefined;
  await client?.$disconnect();
  // Prisma ends the pool only if it ever connected through it; a process that used sql() alone
  // would otherwise keep its connections open.
  if (pgPool && !pgPool.ended) await pgPool.end().catch(() => undefined);
}
