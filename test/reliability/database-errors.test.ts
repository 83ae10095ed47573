/**
 * A connection that the database drops in the middle of a request (restart, failover, an
 * administrator's pg_terminate_backend) must answer 503, never 500. The error reaches the route in
 * several shapes depending on where the transaction was when the connection died — these tests
 * provoke each one on a real PostgreSQL and check the one classifier the route uses.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { baseTestEnv } from '../support/app';
import { resetConfigForTests } from '@/lib/config';
import { db, disconnectDb, isDatabaseUnavailable, isTransactionConflict, sql } from '@/lib/db';

let database: TestDatabase;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(process.env, baseTestEnv(database.url, { DATABASE_POOL_SIZE: '3' }));
  resetConfigForTests();
  await disconnectDb();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query('CREATE TABLE probe (id int PRIMARY KEY, n int NOT NULL)');
  await admin.query('INSERT INTO probe VALUES (1, 0), (2, 0)');
}, 60_000);

afterAll(async () => {
  await disconnectDb();
  await admin?.end();
  await database?.drop();
}, 60_000);

/** Ends the backend serving `pid` as a server shutdown would (SQLSTATE 57P01), and waits until it is gone. */
async function terminate(pid: number) {
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  for (let i = 0; i < 100; i++) {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rowCount === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  // Let the FATAL message reach the client's socket before the next statement is sent.
  await new Promise((r) => setTimeout(r, 50));
}

/**
 * Ends backends from another process while this one is blocked: the termination notice waits,
 * unread, in each connection's socket, so the next statement goes out on a dead connection and
 * the notice comes back as that statement's answer (as when the server stops mid-request).
 */
function terminateUnseen(pids: number[]) {
  const script = `const pg = require('pg');
    const c = new pg.Client(${JSON.stringify(database.url)});
    c.connect()
      .then(() => c.query('SELECT pg_terminate_backend(p) FROM unnest($1::int[]) p', [${JSON.stringify(pids)}]))
      .then(() => new Promise((r) => setTimeout(r, 200)))
      .then(() => c.end());`;
  const done = spawnSync(process.execPath, ['-e', script], { cwd: process.cwd(), encoding: 'utf8' });
  if (done.status !== 0) throw new Error(done.stderr);
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected the operation to fail');
}

describe('a connection dropped mid-request is "unavailable" (503), whatever shape the error takes', () => {
  it('between two statements of an interactive transaction (Prisma model query)', async () => {
    const err = await failure(() =>
      db().$transaction(async (tx) => {
        const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await terminate(pid);
        await tx.tenant.findMany({ take: 1 });
      }),
    );
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
  });

  it('at COMMIT (the adapter error Prisma passes through unwrapped)', async () => {
    const err = await failure(() =>
      db().$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE probe SET n = n + 1 WHERE id = 1`;
        const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        terminateUnseen([pid]);
      }),
    );
    expect((err as Error).name).toBe('DriverAdapterError');
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    // Nothing was written: the transaction died with its connection.
    const { rows } = await admin.query('SELECT n FROM probe WHERE id = 1');
    expect(rows[0].n).toBe(0);
  });

  it('at BEGIN, on an idle pooled connection whose backend ended', async () => {
    await db().tenant.count(); // at least one idle connection in the pool
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    terminateUnseen(rows.map((r) => r.pid));
    const err = await failure(() => db().$transaction(async (tx) => tx.tenant.count()));
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
  });

  it('a raw statement on a pooled connection that was terminated while idle', async () => {
    const client = await sql().connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const errors: Error[] = [];
    client.on('error', (e) => errors.push(e));
    await terminate(rows[0].pid);
    const err = await failure(() => client.query('SELECT 1'));
    client.release(true);
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    for (const e of errors) expect(isDatabaseUnavailable(e), String(e)).toBe(true);
  });

  it("a checked-out connection's error event never goes unhandled (it would end the process)", async () => {
    // The gap: a promise-based checkout (as Prisma's transactions do) before its caller has
    // attached a listener. The database's termination notice can be emitted right there.
    const client = await sql().connect();
    try {
      expect(() =>
        client.emit('error', new Error('terminating connection due to administrator command')),
      ).not.toThrow();
    } finally {
      client.release(true);
    }
  });

  it('the pool keeps serving after its connections were terminated', async () => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    for (const { pid } of rows) await terminate(pid);
    // The first use of each dead idle connection may fail (503); within a few tries, it serves again.
    let served = false;
    for (let i = 0; i < 10 && !served; i++) {
      try {
        await db().tenant.count();
        served = true;
      } catch (err) {
        expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      }
    }
    expect(served).toBe(true);
  });
});

describe('a serialization failure or deadlock is a conflict to retry (503), not a 500', () => {
  it('a deadlock between two transactions (SQLSTATE 40P01)', async () => {
    let release!: () => void;
    const bothLocked = new Promise<void>((r) => (release = r));
    let locked = 0;
    const lockInOrder = (first: number, second: number) =>
      db().$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE probe SET n = n + 1 WHERE id = ${first}`;
        if (++locked === 2) release();
        await bothLocked;
        await tx.$executeRaw`UPDATE probe SET n = n + 1 WHERE id = ${second}`;
      });
    const results = await Promise.allSettled([lockInOrder(1, 2), lockInOrder(2, 1)]);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(isTransactionConflict(rejected[0].reason), String(rejected[0].reason)).toBe(true);
    expect(isDatabaseUnavailable(rejected[0].reason)).toBe(false);
  });

  it('an ordinary constraint error is neither', async () => {
    const err = await failure(() => db().$executeRaw`INSERT INTO probe VALUES (1, 0)`);
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(isTransactionConflict(err)).toBe(false);
  });
});
