/**
 * The query plans that keep a tenant's cost flat as its history grows (issue 47, docs/performance.md).
 * Two tenants get a year of history (the bench's bulk history, bench/data-growth.ts, at a small
 * size: enough rows, with ANALYZE, that the planner chooses as it would on a large database). Each
 * list, console read and due-work query the tenant owner's pages and the lifecycle job run is
 * captured exactly as sent to PostgreSQL (statement and parameters, from node-postgres) and run
 * again under EXPLAIN ANALYZE, rolled back: none may read a history table sequentially, and none
 * may read through history it then throws away (rows removed by a filter), which is what an index
 * scan over the tenant's whole history looks like.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { baseTestEnv } from '../support/app';
import { seedTenant } from '../support/suite';
import { resetConfigForTests } from '@/lib/config';
import { db, disconnectDb } from '@/lib/db';
import type { Tenant } from '@/lib/generated/prisma/client';
import { addLiveRooms, growTenantHistory } from '@/bench/data-growth';
import { resellerTenants, roomEvents, tenantOverview } from '@/lib/domain/console';
import { tenantUsage } from '@/lib/domain/usage';
import { getRoom, listRooms } from '@/lib/domain/rooms';
import { listRoomSessions, listSessions, roomPresence, tenantPresence, getSession } from '@/lib/domain/attendance';
import { listDeliveries } from '@/lib/domain/webhooks';
import { listRecordings } from '@/lib/domain/recordings';
import { listParticipants } from '@/lib/domain/participants';
import { exportChat, pruneChat } from '@/lib/domain/chat';
import { endDueRooms, endEmptyRooms, pruneRetention, reconcileRooms } from '@/lib/domain/lifecycle';
import { encodeCursor } from '@/lib/domain/pagination';

// Tables whose rows are a tenant's history: a query may reach them only through an index condition.
const HISTORY = [
  'Participant',
  'ChatMessage',
  'WebhookAttempt',
  'RoomSession',
  'Event',
  'Room',
  'WebhookDelivery',
  'SessionConnection',
];
// Rows an index scan may read and drop (a page's cursor ties, a room's few non-matching rows).
const MAX_ROWS_DROPPED = 100;

let database: TestDatabase;
let explainer: pg.Client;
let tenant: Tenant;
let providerId: string;
const TAG = 'qp';

interface Statement {
  text: string;
  values: unknown[];
}
let captured: Statement[] | null = null;
const query = pg.Client.prototype.query;

/** Every statement `fn` sends (node-postgres sees each one Prisma and the raw pool send). */
async function capture(fn: () => Promise<unknown>): Promise<Statement[]> {
  captured = [];
  try {
    await fn();
    return captured;
  } finally {
    captured = null;
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/** What is wrong with a statement's plan on the history tables, if anything. */
async function problems({ text, values }: Statement): Promise<string[]> {
  await explainer.query('BEGIN');
  try {
    const { rows } = await explainer.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
    const found: string[] = [];
    for (const { Plan } of rows[0]['QUERY PLAN'] as { Plan: PlanNode }[]) {
      for (const node of nodes(Plan)) {
        const table = node['Relation Name'];
        if (!table || !HISTORY.includes(table)) continue;
        if (node['Node Type'] === 'Seq Scan') found.push(`sequential scan of ${table}`);
        const dropped =
          ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
          (node['Actual Loops'] ?? 1);
        if (dropped > MAX_ROWS_DROPPED)
          found.push(`${table} via ${node['Index Name'] ?? node['Node Type']}: ${dropped} rows read and dropped`);
      }
    }
    return found;
  } finally {
    await explainer.query('ROLLBACK');
  }
}

const touchesHistory = (text: string) =>
  /^\s*(SELECT|UPDATE|DELETE|WITH)/i.test(text) && HISTORY.some((t) => text.includes(`"${t}"`));

/** The plan problems of every history statement `fn` sends (it must send some). */
async function planProblems(fn: () => Promise<unknown>): Promise<string[]> {
  const statements = (await capture(fn)).filter((s) => touchesHistory(s.text));
  expect(statements.length).toBeGreaterThan(0);
  const found: string[] = [];
  for (const s of statements) for (const p of await problems(s)) found.push(`${p}\n    in: ${s.text.slice(0, 300)}`);
  return found;
}

async function expectIndexedPlans(fn: () => Promise<unknown>) {
  expect(await planProblems(fn)).toEqual([]);
}

/** The cursor of the row halfway down a list, as the API writes it. */
async function halfway(table: string, field: string) {
  const { rows } = await explainer.query(
    `SELECT id, "${field}" FROM "${table}" WHERE "tenantId" = $1 ORDER BY "${field}" DESC, id DESC
     OFFSET (SELECT count(*) / 2 FROM "${table}" WHERE "tenantId" = $1) LIMIT 1`,
    [tenant.id],
  );
  return encodeCursor(
    { id: rows[0].id, [field]: rows[0][field] },
    {
      keys: [
        { field, direction: 'desc', type: 'date' },
        { field: 'id', direction: 'desc', type: 'string' },
      ],
    },
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(process.env, baseTestEnv(database.url, { LOG_LEVEL: 'warn', LIVEKIT_URL: 'ws://127.0.0.1:1' }));
  resetConfigForTests();
  await disconnectDb();
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; values?: unknown[] };
    if (captured && this !== explainer) {
      const text = typeof q === 'string' ? q : q?.text;
      if (text) captured.push({ text, values: ((typeof q === 'string' ? args[1] : q.values) as unknown[]) ?? [] });
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  };
  explainer = new pg.Client({ connectionString: database.url });
  await explainer.connect();
  const seeded = await seedTenant({ plan: 'enterprise' });
  tenant = seeded.tenant;
  providerId = seeded.provider.id;
  const other = await seedTenant({ plan: 'enterprise' });
  const now = new Date();
  // Another tenant with four times the history, and this one's: the planner sees a database where
  // the tenant is a part, as on a shared server.
  await growTenantHistory(explainer, { tenantId: other.tenant.id, tag: 'qo', from: 0, to: 20_000, now });
  await growTenantHistory(explainer, { tenantId: tenant.id, tag: TAG, from: 0, to: 5_000, now });
  await addLiveRooms(explainer, { tenantId: other.tenant.id, tag: 'qo', now });
  await addLiveRooms(explainer, { tenantId: tenant.id, tag: TAG, now });
  await explainer.query('ANALYZE');
}, 120_000);

afterAll(async () => {
  (pg.Client.prototype as { query: unknown }).query = query;
  await explainer?.end();
  await disconnectDb();
  await database?.drop();
});

const oldRoom = `${TAG}r250`;
const liveRoom = `${TAG}live0`;

describe('query plans hold as history grows', () => {
  it("the console's room page: the room, its events by room id, its sessions", async () => {
    await expectIndexedPlans(async () => {
      await getRoom(tenant, oldRoom);
      await roomEvents(tenant.id, oldRoom);
      await listRoomSessions(tenant, oldRoom, { limit: 50 });
    });
  });

  it('usage and the console overview read the daily rollups and indexed counts', async () => {
    await expectIndexedPlans(() => tenantOverview(tenant));
    const usage = await tenantUsage(tenant.id, {});
    expect(usage.data.some((d) => d.participantMinutes > 0)).toBe(true);
    const [row] = (await resellerTenants(providerId)).filter((r) => r.tenant.id === tenant.id);
    expect(row.participantMinutes).toBe(usage.monthToDate.participantMinutes);
  });

  it('presence reads open sessions and connections only', async () => {
    await expectIndexedPlans(async () => {
      expect((await tenantPresence(tenant, { limit: 20 })).data.length).toBe(5);
      await roomPresence(tenant, liveRoom);
    });
  });

  it('list pages deep down start at their cursor', async () => {
    const rooms = await halfway('Room', 'createdAt');
    const sessions = await halfway('RoomSession', 'startedAt');
    const deliveries = await halfway('WebhookDelivery', 'createdAt');
    const recordings = await halfway('Recording', 'createdAt');
    await expectIndexedPlans(async () => {
      expect((await listRooms(tenant, { limit: 20, cursor: rooms })).data.length).toBe(20);
      expect((await listSessions(tenant, { limit: 20, cursor: sessions })).data.length).toBe(20);
      expect((await listDeliveries(tenant, { limit: 20, cursor: deliveries })).data.length).toBe(20);
      await listRecordings(tenant, { limit: 20, cursor: recordings });
      await listParticipants(tenant, oldRoom, { limit: 20 });
      await exportChat(tenant, oldRoom, {});
      await getSession(tenant, `${TAG}s250`);
    });
  });

  it('the lifecycle job reads what is due, not what exists', async () => {
    const now = new Date();
    await expectIndexedPlans(async () => {
      await endDueRooms(now);
      await endEmptyRooms(now);
      await reconcileRooms(now);
      await pruneRetention(now);
    });
    await expectIndexedPlans(async () => expect(await pruneChat(now)).toBeGreaterThan(0));
  });

  it('the check itself fails on a query that filters a history by what no index holds', async () => {
    // The console's room page read its events so before Event.roomId.
    const found = await planProblems(() =>
      db().event.findMany({
        where: { tenantId: tenant.id, data: { path: ['roomId'], equals: oldRoom } },
        orderBy: { occurredAt: 'desc' },
        take: 50,
      }),
    );
    expect(found.join('\n')).toMatch(/Event via .*rows read and dropped|sequential scan of Event/);
  });
});
