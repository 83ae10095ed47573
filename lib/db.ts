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
  delivery: undefined as pg.Pool | undefined,
}));

function newPool(max: number): pg.Pool {
  const created = new pg.Pool({ connectionString: config().DATABASE_URL, max });
  created.on('error', () => undefined); // an idle connection dropped (database restart): the pool replaces it
  // A connection the pool hands to a promise-based checkout (Prisma's transactions) has no
  // 'error' listener until the promise settles — a microtask later. When the database stops,
  // the last answer and the termination notice can arrive in one read: the notice is emitted in
  // that gap, and an 'error' event with no listener ends the process. Every connection keeps
  // one listener for its whole life; the statement that uses it still gets the error.
  created.on('connect', (client) => client.on('error', () => undefined));
  return created;
}

/** One client, and so one connection pool, per process. */
export function db(): PrismaClient {
  if (!pool.client) {
    // The pool is ours, so the hot paths (join, room creation) can run one plain statement on it
    // without Prisma's per-query cost (sql() below); Prisma shares the same connections.
    pool.pg = newPool(config().DATABASE_POOL_SIZE);
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
 * The webhook dispatcher's own connections (two: a lease and a batch of records can run at once).
 * On the request pool its statements queue behind the requests that emit the events — a join
 * burst made every delivery wait for 32 joins' transactions. Its own connections keep delivery
 * on time while requests keep the request pool busy.
 */
export function deliverySql(): pg.Pool {
  pool.delivery ??= newPool(2);
  return pool.delivery;
}

/**
 * A database that cannot be reached or dropped the connection mid-query (restart, failover, pool
 * exhausted): the request is answered 503 (retry), never 500. An error reaches us in one of three
 * shapes — node-postgres's own (the raw pool), Prisma's (the SQLSTATE in its message), or the
 * driver adapter's DriverAdapterError that Prisma passes through unwrapped from a transaction's
 * BEGIN or COMMIT (the SQLSTATE in `cause.originalCode`, a lost socket as `cause.kind`) — so the
 * SQLSTATE is read from all three.
 */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const ADAPTER_UNREACHABLE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TlsConnectionError',
]);
// SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (too many connections).
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

function sqlState(err: Error): string | undefined {
  // Prisma's own codes (P2010, ...) look like SQLSTATEs: its error carries the SQLSTATE in the message.
  if (err instanceof Prisma.PrismaClientKnownRequestError) return /Code: `([0-9A-Z]{5})`/.exec(err.message)?.[1];
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  const cause = (err as { cause?: { originalCode?: unknown } }).cause;
  if (typeof cause?.originalCode === 'string') return cause.originalCode;
  return /Code: `([0-9A-Z]{5})`/.exec(err.message)?.[1];
}

/** The driver adapter's classification of its error (e.g. ConnectionClosed), when it is one. */
function adapterErrorKind(err: Error): string | undefined {
  const kind = (err as { cause?: { kind?: unknown } }).cause?.kind;
  return err.name === 'DriverAdapterError' && typeof kind === 'string' ? kind : undefined;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if (err instanceof Prisma.PrismaClientKnownRequestError && PRISMA_UNREACHABLE.has(err.code)) return true;
  if (!(err instanceof Error)) return false;
  const state = sqlState(err);
  if (state && UNAVAILABLE_SQLSTATE.test(state)) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  if (ADAPTER_UNREACHABLE.has(adapterErrorKind(err) ?? '')) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    err.message,
  );
}

/** A serialization failure or deadlock (SQLSTATE 40001, 40P01) in any of the three shapes: busy, retry. */
export function isTransactionConflict(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2034') return true;
  if (!(err instanceof Error)) return false;
  return adapterErrorKind(err) === 'TransactionWriteConflict' || /^40(001|P01)$/.test(sqlState(err) ?? '');
}

export async function disconnectDb(): Promise<void> {
  const client = pool.client;
  const pgPool = pool.pg;
  const deliveryPool = pool.delivery;
  pool.client = undefined;
  pool.pg = undefined;
  pool.delivery = undefined;
  await client?.$disconnect();
  // Prisma ends the pool only if it ever connected through it; a process that used sql() alone
  // would otherwise keep its connections open.
  if (pgPool && !pgPool.ended) await pgPool.end().catch(() => undefined);
  if (deliveryPool && !deliveryPool.ended) await deliveryPool.end().catch(() => undefined);
}
