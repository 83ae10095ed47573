/**
 * The webhook part of `npm run bench` (BENCH_PARTS=webhooks): the delivery pipeline of the running
 * server, measured end to end at loopback receivers in this process.
 *
 * - a join-driven burst: 32 clients make distinct joins into three waiting-room rooms, each join
 *   parking one user and emitting one `participant.waiting`; lag = receipt − the envelope's occurredAt;
 * - a queued burst for one tenant: deliveries written straight into the outbox, all due at once
 *   (drain rate) and due at a steady rate (latency from due to received);
 * - fairness: a paced tenant alone, then the same while a tenant whose receiver takes 2 s per
 *   answer has a backlog and a tenant whose receiver fails is being retried;
 * - waiting-room joins against GET /health at 64 concurrent (the join's fast path).
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhook-receiver';

interface Bench {
  base: string;
  /** The bench tenant's key (its webhook filter delivers only webhook.test). */
  key: string;
  /** How many events each burst has. */
  joinBurst?: number;
  queuedBurst?: number;
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);

async function webhookTenant(name: string, receiver: { url: string }, webhookEvents: string[] | null = null) {
  const { db } = await import('../lib/db');
  const { createProviderWithKey, provisionTenant } = await import('../lib/domain/tenants');
  return db().$transaction(async (tx) => {
    const { provider } = await createProviderWithKey(`Bench ${name}`, { tx });
    const t = await provisionTenant(
      {
        name: `Bench ${name}`,
        providerId: provider.id,
        plan: 'enterprise',
        webhookUrl: receiver.url,
        webhookEvents,
        entitlementOverrides: { apiRequestsPerSecond: 1_000_000, maxParticipantsPerRoom: 10_000 },
      },
      { tx },
    );
    return { key: t.plainTextKey, tenantId: t.tenant.id };
  });
}

async function waitingRooms(base: string, key: string, count: number) {
  const rooms: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${base}/api/v1/rooms`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ createdByExternalId: 'bench', maxParticipants: 10_000, enableWaitingRoom: true }),
    });
    if (res.status !== 201) throw new Error(`room: HTTP ${res.status} ${await res.text()}`);
    rooms.push(((await res.json()) as { id: string }).id);
  }
  return rooms;
}

/** `amount` distinct joins (or joins for `seconds`) over the rooms by `connections` clients. */
function joins(
  base: string,
  key: string,
  rooms: string[],
  opts: { connections: number; amount?: number; seconds?: number },
) {
  let n = 0;
  const run = randomBytes(3).toString('hex');
  return autocannon({
    url: base,
    connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds }),
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            method: 'POST',
            path: `/api/v1/rooms/${rooms[i % rooms.length]}/join`,
            body: JSON.stringify({ externalUserId: `w_${run}_${i}`, displayName: 'Bench' }),
          };
        },
      },
    ],
  });
}

interface LagRow {
  run: string;
  events: number;
  generatedPerS: number | null;
  deliveredPerS: number;
  p50: number;
  p99: number;
  max: number;
  note: string;
}

/** Lags (ms) of the first delivery of each event, from a reference time per event. */
function lagsOf(received: WebhookReceiver['received'], from: (body: { id: string; occurredAt: string }) => number) {
  const seen = new Set<string>();
  const lags: number[] = [];
  for (const r of received) {
    const body = JSON.parse(r.body) as { id: string; occurredAt: string };
    if (seen.has(body.id)) continue;
    seen.add(body.id);
    lags.push(r.at - from(body));
  }
  return { lags: sortedOf(lags), distinct: seen.size };
}

/** The join-driven burst: every parked user's participant.waiting, from occurredAt to receipt. */
async function joinBurst(base: string, count: number): Promise<LagRow> {
  const receiver = await startWebhookReceiver();
  try {
    const tenant = await webhookTenant('join burst', receiver, ['participant.waiting']);
    const rooms = await waitingRooms(base, tenant.key, 3);
    const started = Date.now();
    const result = await joins(base, tenant.key, rooms, { connections: 32, amount: count });
    const joinedAt = Date.now();
    const failed = result.non2xx + result.errors + result.timeouts;
    await receiver.waitFor(count - failed, 120_000);
    const { lags, distinct } = lagsOf(receiver.received, (b) => Date.parse(b.occurredAt));
    const users = new Set(
      receiver.received.map((r) => (JSON.parse(r.body) as { data: { externalUserId: string } }).data.externalUserId),
    );
    const lastAt = Math.max(...receiver.received.map((r) => r.at));
    return {
      run: `join-driven burst: ${count} waiting-room joins, 32 clients, 3 rooms`,
      events: distinct,
      generatedPerS: Math.round(count / ((joinedAt - started) / 1000)),
      deliveredPerS: Math.round(distinct / ((lastAt - started) / 1000)),
      p50: pct(lags, 0.5),
      p99: pct(lags, 0.99),
      max: lags.at(-1)!,
      note: `${failed} joins failed; ${users.size} distinct users notified for ${count - failed} parked${receiver.received.length > distinct ? `; ${receiver.received.length - distinct} repeats` : ''}`,
    };
  } finally {
    await receiver.close();
  }
}

/**
 * Deliveries written straight into the outbox for one tenant (an event and a delivery each, as
 * emitEvent writes them), the i-th due at `dueAt + i · spacingMs`.
 */
async function queue(tenantId: string, url: string, count: number, dueAt: number, spacingMs: number) {
  const { sql } = await import('../lib/db');
  const run = randomBytes(4).toString('hex');
  await sql().query(
    `WITH e AS (
       INSERT INTO "Event" (id, "tenantId", name, data, "occurredAt")
       SELECT 'evt_bench' || $5 || '_' || i, $1, 'webhook.test', json_build_object('i', i),
              (to_timestamp($3::double precision / 1000) + make_interval(secs => i * $4::double precision / 1000)) AT TIME ZONE 'UTC'
       FROM generate_series(0, $2::int - 1) AS i
       RETURNING id, "occurredAt"
     )
     INSERT INTO "WebhookDelivery" (id, "tenantId", "eventId", "eventName", url, status, "nextAttemptAt", "updatedAt")
     SELECT 'whd_' || e.id, $1, e.id, 'webhook.test', $6, 'PENDING', e."occurredAt", now() FROM e`,
    [tenantId, count, dueAt, spacingMs, run, url],
  );
}

async function queuedBurst(count: number): Promise<LagRow[]> {
  const receiver = await startWebhookReceiver();
  try {
    const tenant = await webhookTenant('queued burst', receiver);
    const rows: LagRow[] = [];
    for (const [label, spacingMs] of [
      ['all due at once', 0],
      ['due at 600/s', 1000 / 600],
    ] as const) {
      receiver.received.length = 0;
      const dueAt = Date.now() + 1000;
      await queue(tenant.tenantId, receiver.url, count, dueAt, spacingMs);
      await receiver.waitFor(count, 120_000);
      // occurredAt = nextAttemptAt = when each delivery fell due.
      const { lags, distinct } = lagsOf(receiver.received, (b) => Date.parse(b.occurredAt));
      const lastAt = Math.max(...receiver.received.map((r) => r.at));
      rows.push({
        run: `queued burst, one tenant: ${count} ${label}`,
        events: distinct,
        generatedPerS: spacingMs ? Math.round(1000 / spacingMs) : null,
        deliveredPerS: Math.round(distinct / ((lastAt - dueAt) / 1000)),
        p50: pct(lags, 0.5),
        p99: pct(lags, 0.99),
        max: lags.at(-1)!,
        note: 'lag from due to received',
      });
    }
    return rows;
  } finally {
    await receiver.close();
  }
}

/**
 * Fairness: tenant A's paced events (200/s for 5 s) alone, then again while tenant S (each answer
 * takes 2 s) has 400 due and tenant F (always 500) has 20 due and being retried.
 */
async function fairness(): Promise<{ rows: LagRow[]; retries: string }> {
  const a = await startWebhookReceiver();
  const s = await startWebhookReceiver(() => ({ status: 200, body: 'ok', delayMs: 2000 }));
  const f = await startWebhookReceiver(() => ({ status: 500 }));
  try {
    const ta = await webhookTenant('fair A', a);
    const ts = await webhookTenant('fair S (2 s receiver)', s);
    const tf = await webhookTenant('fair F (failing receiver)', f);
    const rows: LagRow[] = [];
    const paced = async (label: string) => {
      a.received.length = 0;
      const dueAt = Date.now() + 500;
      await queue(ta.tenantId, a.url, 1000, dueAt, 5);
      await a.waitFor(1000, 60_000);
      const { lags, distinct } = lagsOf(a.received, (b) => Date.parse(b.occurredAt));
      rows.push({
        run: `fairness: tenant A 200/s for 5 s, ${label}`,
        events: distinct,
        generatedPerS: 200,
        deliveredPerS: Math.round(distinct / ((Math.max(...a.received.map((r) => r.at)) - dueAt) / 1000)),
        p50: pct(lags, 0.5),
        p99: pct(lags, 0.99),
        max: lags.at(-1)!,
        note: 'lag from due to received',
      });
    };
    await paced('alone');
    const noisyFrom = Date.now();
    await queue(ts.tenantId, s.url, 400, noisyFrom, 0);
    await queue(tf.tenantId, f.url, 20, noisyFrom, 0);
    await paced('with S (2 s receiver, 400 due) and F (failing, 20 due)');
    // F's second attempts: due backoff(1) after the first failed; how late each came.
    await f.waitFor(40, 30_000);
    const { config } = await import('../lib/config');
    const firsts = new Map<string, number>();
    const late: number[] = [];
    for (const r of f.received) {
      const id = String(r.headers['x-webhook-id']);
      const first = firsts.get(id);
      if (first === undefined) firsts.set(id, r.at);
      else late.push(r.at - first - config().WEBHOOK_BACKOFF_BASE_MS);
    }
    const lateness = sortedOf(late);
    return {
      rows,
      retries: `Failing receiver F: ${lateness.length} second attempts, each due ${config().WEBHOOK_BACKOFF_BASE_MS} ms after the first failed; they came that gap plus p50 ${pct(lateness, 0.5)} ms, max ${lateness.at(-1)} ms (the gap is measured between receipts, so it includes the first attempt's answer). Slow receiver S answered ${s.received.length} of 400 meanwhile, at most ${s.maxConcurrent} at once.`,
    };
  } finally {
    await Promise.all([a.close(), s.close(), f.close()]);
  }
}

/** Waiting-room joins vs GET /health, both at 64 concurrent, interleaved in two rounds each. */
async function waitingRoomJoins(base: string, key: string, seconds: number) {
  const rooms = await waitingRooms(base, key, 20);
  const health: number[] = [];
  const join: { rps: number; p50: number; p99: number; failed: number }[] = [];
  for (let round = 0; round < 2; round++) {
    const h = await autocannon({ url: `${base}/api/v1/health`, connections: 64, duration: seconds });
    health.push(h.requests.average);
    const j = await joins(base, key, rooms, { connections: 64, seconds });
    join.push({
      rps: j.requests.average,
      p50: j.latency.p50,
      p99: j.latency.p99,
      failed: j.non2xx + j.errors + j.timeouts,
    });
  }
  const healthRps = health.reduce((x, y) => x + y, 0) / health.length;
  const joinRps = join.reduce((x, y) => x + y.rps, 0) / join.length;
  const failed = join.reduce((x, y) => x + y.failed, 0);
  return `| waiting-room joins at 64 concurrent ≥ 60 % of GET /health | ${Math.round(joinRps)} req/s vs ${Math.round(healthRps)}: ${Math.round((joinRps / healthRps) * 100)} %${failed ? ` — not comparable: ${failed} failed` : ''} (join p50 ${Math.round(join.reduce((x, y) => x + y.p50, 0) / join.length)} ms, p99 ${Math.max(...join.map((j) => j.p99))} ms) |`;
}

export async function webhookBench({ base, key, joinBurst: joinCount = 3000, queuedBurst: queued = 5000 }: Bench) {
  const rows: LagRow[] = [];
  rows.push(await joinBurst(base, joinCount));
  rows.push(...(await queuedBurst(queued)));
  const fair = await fairness();
  rows.push(...fair.rows);
  const joinsVsHealth = await waitingRoomJoins(base, key, 4);
  return [
    '## Webhook pipeline',
    '',
    'Deliveries from the server to loopback receivers in the runner process (receipt times taken there). Goals: join-driven burst lag p99 < 1 s with delivered/s ≥ generated/s; a queued burst drains ≥ 500/s, p99 < 250 ms from due to received; tenant A no slower beside a slow and a failing tenant.',
    '',
    '| run | events | generated/s | delivered/s | lag p50 ms | lag p99 ms | max ms | notes |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.run} | ${r.events} | ${r.generatedPerS ?? '—'} | ${r.deliveredPerS} | ${r.p50} | ${r.p99} | ${r.max} | ${r.note} |`,
    ),
    '',
    fair.retries,
    '',
    '| goal | measured |',
    '|---|---|',
    joinsVsHealth,
    '',
  ].join('\n');
}
