/**
 * `npm run soak`: a bounded run of mixed traffic — room creation, joins (some into waiting
 * rooms), polls and votes, test webhooks, room ends — against one app process on a PostgreSQL
 * server of its own (embedded, never the machine's shared one), while the run restarts that
 * PostgreSQL once and SIGKILLs and restarts the app once. Webhooks go to a receiver that fails a
 * share of attempts (500s), so deliveries are retried across both faults.
 *
 * Afterwards it checks: every request was answered with a success, a documented 4xx or a 503
 * (zero 500s, zero hung requests); every event the app recorded, and every event id an API
 * response named, reached the receiver with a 2xx — exactly once by id (a redelivery of the same
 * id after the kill is reported, not lost). Writes bench/reports/soak-<time>.md and
 * soak-latest.md (the bench report includes the latter).
 *
 * For the whole run, beside that traffic, a hostile tenant and a hostile participant
 * (bench/soak-hostile.ts): the tenant starts streams to destinations the API refuses, more streams,
 * recordings and ingresses at once than its plan allows (the checks fail the run if more start),
 * and one room's recording four times at once; the participant, connected to the media server
 * with LiveKit's Rust SDK, floods data packets past the server's limits, asks for oversized
 * metadata and names, and sends bad join requests (a stranger's 500,000 add-track requests, a
 * good token's oversized request) — each refusal must come within HOSTILE_JOIN_SLOW_MS.
 *
 * Env: SOAK_SECONDS (default 180), SOAK_WORKERS (default 8), SOAK_PG_DOWN_SECONDS (default 3).
 * A short version runs in the test suite (test/operations/soak.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../lib/runtime/embedded-postgres';
import { freePort } from '../e2e/support/app';
import { baseTestEnv, startApp, TEST_MASTER_KEY, type AppProcess } from '../test/support/app';
import { startDevMediaServer } from '../media-server';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { ERROR_CATALOGUE } from '../lib/errors';
import { hostileTenantLoop, startHostileParticipant, type HostileTally } from './soak-hostile';
import { isMain } from '../scripts/is-main';

const root = path.resolve(import.meta.dirname, '..');

export interface SoakOptions {
  seconds: number;
  workers: number;
  pgDownSeconds: number;
  log?: (line: string) => void;
}

export interface SoakResult {
  ok: boolean;
  problems: string[];
  table: string;
  counts: Record<string, number>;
  /** What the app processes printed (warnings and errors). */
  appLog: string;
  /** What the hostile tenant and participant did, and what they were answered. */
  hostile: HostileTally;
}

/** Statuses a request may end with: success, a documented 4xx, or a 503 to retry. */
type Outcome =
  | 'success'
  | 'documented 4xx'
  | '503'
  | '500'
  | 'other 5xx'
  | 'undocumented 4xx'
  | 'hung'
  | 'cut by the kill'
  | 'app down (refused, retried)';

const HUNG_AFTER_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'convene-soak-'));
  chmodSync(dir, 0o755); // as root, PostgreSQL runs as the postgres user, which must reach its data dir
  const pgPort = await freePort();
  let database = await startEmbeddedPostgres({ dir, port: pgPort, database: 'convene_soak' });
  const media = await startDevMediaServer();
  // The receiver fails a share of attempts: the first attempt of a third of the event ids, and
  // the second one too of a ninth of them; the third attempt always succeeds.
  const attemptsById = new Map<string, number>();
  const acknowledged = new Map<string, number>();
  const receiver = await startWebhookReceiver();
  receiver.setBehaviour((n) => {
    const id = String(receiver.received[n].headers['x-webhook-id']);
    const attempt = (attemptsById.get(id) ?? 0) + 1;
    attemptsById.set(id, attempt);
    const h = createHash('sha256').update(id).digest()[0];
    const fail = (attempt === 1 && h % 3 === 0) || (attempt === 2 && h % 9 === 0);
    if (fail) return { status: 500, body: 'not now' };
    acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1);
    return { status: 200, body: 'ok' };
  });

  const appPort = await freePort();
  const env = baseTestEnv(database.url, {
    ...media.env(),
    PORT: String(appPort),
    DATABASE_POOL_SIZE: '10',
    LOG_LEVEL: 'warn',
    WEBHOOK_BACKOFF_BASE_MS: '200',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  let app: AppProcess | undefined;
  const counts = new Map<string, number>();
  const byRoute = new Map<string, Map<Outcome, number>>();
  const problems: string[] = [];
  const eventIdsFromApi = new Set<string>();
  const timeline: string[] = [];
  let started = Date.now();
  const appLogs: string[] = [];
  const mark = (what: string) => {
    timeline.push(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    log(`soak: ${what}`);
  };

  try {
    const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) throw new Error(`migrate deploy failed: ${migrate.stderr}`);
    const seed = await seedTenant(database.url, receiver.url);
    app = await startApp(env);
    const base = app.baseUrl;
    // The media server's webhooks reach the app, as on `npm start` (egress and the participant's joins).
    media.setWebhookUrls([`${base}/api/media/webhook`]);
    started = Date.now();
    mark('traffic starts');

    let appDown = false;
    let stopping = false;
    const record = (routeName: string, outcome: Outcome, detail?: string) => {
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      const m = byRoute.get(routeName) ?? new Map<Outcome, number>();
      m.set(outcome, (m.get(outcome) ?? 0) + 1);
      byRoute.set(routeName, m);
      if (
        (outcome === '500' || outcome === 'other 5xx' || outcome === 'undocumented 4xx' || outcome === 'hung') &&
        problems.length < 20
      ) {
        problems.push(`${routeName}: ${outcome}${detail ? ` — ${detail.slice(0, 300)}` : ''}`);
      }
    };

    /** One API call; refused connections while the app is down are retried (they never reached it). */
    async function call(
      routeName: string,
      method: string,
      urlPath: string,
      body?: unknown,
      key = seed.key,
    ): Promise<{ status: number; json: any } | null> {
      for (;;) {
        if (stopping && routeName !== 'drain') return null;
        try {
          const res = await fetch(`${base}${urlPath}`, {
            method,
            headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
            signal: AbortSignal.timeout(HUNG_AFTER_MS),
          });
          const text = await res.text();
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: judged by its status below
          }
          const code = json?.error?.code as string | undefined;
          if (res.status < 400) record(routeName, 'success');
          else if (res.status === 503) record(routeName, '503');
          else if (res.status === 500) record(routeName, '500', text);
          else if (res.status >= 500) record(routeName, 'other 5xx', `${res.status} ${text}`);
          else if (code && code in ERROR_CATALOGUE) record(routeName, 'documented 4xx');
          else record(routeName, 'undocumented 4xx', `${res.status} ${text}`);
          return { status: res.status, json };
        } catch (err) {
          const e = err as Error & { cause?: { code?: string } };
          if (e.name === 'TimeoutError') {
            record(routeName, 'hung', `${method} ${urlPath}`);
            return null;
          }
          if (e.cause?.code === 'ECONNREFUSED') {
            record(routeName, 'app down (refused, retried)');
            await sleep(100);
            continue;
          }
          // The socket closed under the request: the app was killed while it was in flight.
          if (
            appDown ||
            e.cause?.code === 'ECONNRESET' ||
            /other side closed|socket/i.test(String(e.cause ?? e.message))
          ) {
            record(routeName, 'cut by the kill', e.cause?.code);
            return null;
          }
          record(routeName, 'hung', `${method} ${urlPath}: ${e.message} ${String(e.cause ?? '')}`);
          return null;
        }
      }
    }

    async function worker(w: number) {
      for (let i = 0; !stopping; i++) {
        const waitingRoom = i % 5 === 4;
        const room = await call('POST /rooms', 'POST', '/api/v1/rooms', {
          createdByExternalId: `host_${w}`,
          maxParticipants: 6,
          enableWaitingRoom: waitingRoom,
        });
        if (!room || room.status !== 201) {
          await sleep(50);
          continue;
        }
        const roomId = room.json.id as string;
        // Seven joins into six seats: one ROOM_FULL (documented 409) per room unless it parks them.
        const joins = await Promise.all(
          Array.from({ length: 7 }, (_, j) =>
            call('POST /rooms/{id}/join', 'POST', `/api/v1/rooms/${roomId}/join`, {
              externalUserId: j === 0 ? `host_${w}` : `u_${w}_${i}_${j}`,
              displayName: 'Soak',
              role: j === 0 ? 'HOST' : 'ATTENDEE',
            }),
          ),
        );
        const poll = await call('POST /polls', 'POST', '/api/v1/polls', {
          roomId,
          createdByExternalId: `host_${w}`,
          question: 'Soak?',
          options: ['yes', 'no'],
          status: 'OPEN',
        });
        if (poll?.status === 201 || poll?.status === 200) {
          const voters = joins
            .map((j, k) =>
              j?.status === 200 && !j.json.waitingForApproval ? (k === 0 ? `host_${w}` : `u_${w}_${i}_${k}`) : null,
            )
            .filter(Boolean);
          await Promise.all(
            voters.slice(0, 3).map((v) =>
              call('POST /polls/{id}/vote', 'POST', `/api/v1/polls/${poll.json.id}/vote`, {
                voterExternalId: v,
                optionIds: [poll.json.options[0].id],
              }),
            ),
          );
          await call('GET /polls/{id}', 'GET', `/api/v1/polls/${poll.json.id}`);
        }
        const test = await call('POST /webhooks/test', 'POST', '/api/v1/webhooks/test', {});
        if (test?.status === 202) eventIdsFromApi.add(test.json.eventId);
        await call('POST /rooms/{id}/end', 'POST', `/api/v1/rooms/${roomId}/end`);
      }
    }

    const durationMs = opts.seconds * 1000;
    const hostile: HostileTally = {
      tenant: { rounds: 0, refusedDestinations: 0, overQuota: 0, recordingConflicts: 0, startedBeyondPlan: [] },
      participant: {
        connections: 0,
        dataPackets: 0,
        metadataAttempts: 0,
        badJoins: 0,
        slowestBadJoinMs: 0,
        slowJoins: [],
      },
    };
    const hostileCall = (routeName: string, method: string, urlPath: string, body?: unknown) =>
      call(`hostile: ${routeName}`, method, urlPath, body, seed.hostileKey);
    const participant = await startHostileParticipant({
      call: hostileCall,
      mediaUrl: media.url,
      tally: hostile.participant,
    });
    const workers = Promise.all([
      ...Array.from({ length: opts.workers }, (_, w) => worker(w)),
      hostileTenantLoop({ call: hostileCall, tally: hostile.tenant, stopping: () => stopping }),
    ]);

    // Fault 1: PostgreSQL stops (fast shutdown: connections are cut) and comes back.
    await sleep(durationMs * 0.25);
    mark('PostgreSQL stops');
    const answered503Before = counts.get('503') ?? 0;
    await database.stop();
    await sleep(opts.pgDownSeconds * 1000);
    // On a loaded machine the workers may all be between requests for the whole outage: keep the
    // database down (up to 15 s more) until one request has met it, so the run tests what it says.
    const outageDeadline = Date.now() + 15_000;
    while ((counts.get('503') ?? 0) === answered503Before && Date.now() < outageDeadline) await sleep(100);
    database = await startEmbeddedPostgres({ dir, port: pgPort, database: 'convene_soak' });
    mark('PostgreSQL is back');

    // Fault 2: the app process is SIGKILLed mid-traffic and started again on the same port.
    await sleep(Math.max(0, started + durationMs * 0.55 - Date.now()));
    mark('app SIGKILLed');
    appDown = true;
    await app.kill();
    appLogs.push(app.output());
    await sleep(500);
    app = await startApp(env);
    appDown = false;
    mark('app is back');

    // Traffic goes on after the restart: the rest of the run, and at least a quarter of it.
    await sleep(Math.max(started + durationMs - Date.now(), durationMs * 0.25));
    stopping = true;
    mark('traffic stops; waiting for the deliveries to drain');
    await workers;
    await participant.stop();
    // Its leaving reaches the app as a media webhook: recorded before the drain below looks.
    await media.webhooksIdle();
    if (hostile.participant.connections === 0) problems.push('the hostile participant never connected');
    problems.push(...hostile.tenant.startedBeyondPlan, ...hostile.participant.slowJoins);

    // Drain: every recorded event's delivery DELIVERED (the receiver's 500s cost retries).
    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const { rows } = await check.query<{ open: number }>(
          `SELECT count(*)::int AS open FROM "WebhookDelivery" WHERE status <> 'DELIVERED'`,
        );
        if (rows[0].open === 0 || Date.now() > deadline) break;
        await sleep(250);
      }
      await sleep(500); // a last attempt's response on its way to the receiver's map
      mark('drained');
      const events = await check.query<{ id: string; name: string; status: string | null }>(
        `SELECT e.id, e.name, d.status::text AS status FROM "Event" e LEFT JOIN "WebhookDelivery" d ON d."eventId" = e.id WHERE e."tenantId" = ANY($1)`,
        [[seed.tenantId, seed.hostileTenantId]],
      );
      const recorded = new Map(events.rows.map((e) => [e.id, e]));
      const expected = events.rows.filter((e) => e.status !== null);
      const lost = expected.filter((e) => !acknowledged.has(e.id));
      const notRecorded = [...eventIdsFromApi].filter((id) => !recorded.has(id));
      const unknown = [...attemptsById.keys()].filter((id) => !recorded.has(id));
      const twice = [...acknowledged.values()].filter((n) => n > 1).length;
      const failedAttempts = receiver.received.length - [...acknowledged.values()].reduce((a, b) => a + b, 0);
      const byName = new Map<string, number>();
      for (const e of expected) byName.set(e.name, (byName.get(e.name) ?? 0) + 1);
      if (lost.length)
        problems.push(
          `${lost.length} events never acknowledged by the receiver, e.g. ${lost
            .slice(0, 3)
            .map((e) => `${e.name} ${e.id} (${e.status})`)
            .join(', ')}`,
        );
      if (notRecorded.length) problems.push(`${notRecorded.length} event ids answered 202 by the API but not recorded`);
      if (unknown.length) problems.push(`${unknown.length} ids reached the receiver that the app never recorded`);
      for (const bad of ['500', 'other 5xx', 'undocumented 4xx', 'hung'] as const) {
        if ((counts.get(bad) ?? 0) > 0 && !problems.some((p) => p.includes(bad)))
          problems.push(`${counts.get(bad)} requests: ${bad}`);
      }
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const outcomes: Outcome[] = [
        'success',
        'documented 4xx',
        '503',
        '500',
        'other 5xx',
        'undocumented 4xx',
        'hung',
        'cut by the kill',
        'app down (refused, retried)',
      ];
      appLogs.push(app.output());
      // A 500 is logged with its cause: put those lines in the report, so a failure says why.
      const unhandled = appLogs
        .join('\n')
        .split('\n')
        .filter((line) => line.includes('unhandled error'))
        .slice(0, 5);
      const table = [
        `Soak: ${opts.seconds} s, ${opts.workers} workers, PostgreSQL down ${opts.pgDownSeconds} s once, app SIGKILLed once. ${new Date().toISOString()}.`,
        '',
        '| route | ' + outcomes.join(' | ') + ' |',
        '|---|' + outcomes.map(() => '---').join('|') + '|',
        ...[...byRoute.entries()].map(([r, m]) => `| ${r} | ${outcomes.map((o) => m.get(o) ?? 0).join(' | ')} |`),
        `| **all (${total})** | ${outcomes.map((o) => counts.get(o) ?? 0).join(' | ')} |`,
        '',
        '| webhooks | |',
        '|---|---|',
        `| events recorded with a delivery | ${expected.length} (${[...byName].map(([n, c]) => `${n} ${c}`).join(', ')}) |`,
        `| event ids answered by the API (202) and recorded | ${eventIdsFromApi.size - notRecorded.length} of ${eventIdsFromApi.size} |`,
        `| acknowledged by the receiver (2xx), distinct ids | ${acknowledged.size} |`,
        `| lost (recorded, never acknowledged) | ${lost.length} |`,
        `| unknown ids at the receiver | ${unknown.length} |`,
        `| attempts the receiver failed on purpose (500), then retried | ${failedAttempts} |`,
        `| ids acknowledged more than once (redelivered: the app was killed between the receiver's 2xx and recording it) | ${twice} |`,
        '',
        '| hostile tenant and participant (the whole run) | |',
        '|---|---|',
        `| tenant rounds (streams to refused destinations, 3 streams / 4 recordings of one room / 4 ingresses at once) | ${hostile.tenant.rounds} |`,
        `| refused destinations (400) / over the plan (403) / recording already running (409) | ${hostile.tenant.refusedDestinations} / ${hostile.tenant.overQuota} / ${hostile.tenant.recordingConflicts} |`,
        `| started beyond the plan's limits | ${hostile.tenant.startedBeyondPlan.length} |`,
        `| participant connections / data packets sent (past the server's 100/s, 1 MiB/s) / oversized metadata and name updates | ${hostile.participant.connections} / ${hostile.participant.dataPackets} / ${hostile.participant.metadataAttempts} |`,
        `| bad join requests refused / slowest refusal | ${hostile.participant.badJoins} / ${hostile.participant.slowestBadJoinMs} ms |`,
        '',
        `Timeline: ${timeline.join('; ')}.`,
        '',
        problems.length
          ? `**Problems:**\n\n${problems.map((p) => `- ${p}`).join('\n')}`
          : '**Result: pass** — zero 500s, zero hung requests, no event lost.',
        ...(unhandled.length
          ? ['', '**Unhandled errors in the app log:**', '', ...unhandled.map((l) => `    ${l}`)]
          : []),
      ].join('\n');
      return {
        ok: problems.length === 0,
        problems,
        table,
        counts: Object.fromEntries(counts),
        appLog: appLogs.join('\n--- app restarted ---\n'),
        hostile,
      };
    } finally {
      await check.end();
    }
  } finally {
    await app?.stop().catch(() => undefined);
    await receiver.close();
    await media.close();
    await database.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A tenant with a webhook for every event, limits out of the way, and the hostile tenant (small
 * limits, the same webhook). Seeded through its own connection.
 */
async function seedTenant(databaseUrl: string, webhookUrl: string) {
  process.env.DATABASE_URL = databaseUrl;
  // The app's key (baseTestEnv): the tenant's webhook secret is encrypted with it.
  process.env.CONVENE_MASTER_KEY = TEST_MASTER_KEY;
  const { resetConfigForTests } = await import('../lib/config');
  resetConfigForTests();
  const { db, disconnectDb } = await import('../lib/db');
  await disconnectDb();
  const { createProviderWithKey, provisionTenant } = await import('../lib/domain/tenants');
  try {
    return await db().$transaction(async (tx) => {
      const { provider } = await createProviderWithKey('Soak Provider', { tx });
      const t = await provisionTenant(
        {
          name: 'Soak Tenant',
          providerId: provider.id,
          plan: 'enterprise',
          webhookUrl,
          entitlementOverrides: { apiRequestsPerSecond: 1_000_000, concurrentLiveRooms: 1_000_000 },
        },
        { tx },
      );
      // Small limits it tries to pass; requests per second out of the way (a 429 would hide what it tries).
      const hostile = await provisionTenant(
        {
          name: 'Hostile Tenant',
          providerId: provider.id,
          plan: 'starter',
          webhookUrl,
          entitlementOverrides: {
            apiRequestsPerSecond: 1_000_000,
            concurrentLiveRooms: 1_000_000,
            concurrentStreams: 1,
            concurrentRecordings: 1,
            ingressEndpoints: 2,
          },
        },
        { tx },
      );
      return {
        key: t.plainTextKey,
        tenantId: t.tenant.id,
        hostileKey: hostile.plainTextKey,
        hostileTenantId: hostile.tenant.id,
      };
    });
  } finally {
    await disconnectDb();
  }
}

if (isMain(import.meta.filename)) {
  const seconds = Number(process.env.SOAK_SECONDS ?? 180);
  const result = await runSoak({
    seconds,
    workers: Number(process.env.SOAK_WORKERS ?? 8),
    pgDownSeconds: Number(process.env.SOAK_PG_DOWN_SECONDS ?? 3),
  });
  mkdirSync(path.join(root, 'bench/reports'), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(path.join(root, 'bench/reports', `soak-${stamp}.md`), `# Convene soak — ${stamp}\n\n${result.table}\n`);
  writeFileSync(path.join(root, 'bench/reports', 'soak-latest.md'), result.table + '\n');
  writeFileSync(path.join(root, 'bench/reports', 'soak-latest-app.log'), result.appLog);
  console.log(result.table);
  process.exit(result.ok ? 0 : 1);
}
