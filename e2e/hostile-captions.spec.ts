import { deflateRawSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { test, expect, type Browser, type Page } from '@playwright/test';
import {
  DataPacket,
  DataPacket_Kind,
  DataStream_Chunk,
  DataStream_CompressionType,
  DataStream_Header,
  DataStream_OperationType,
  DataStream_TextHeader,
  DataStream_Trailer,
  Transcription,
  TranscriptionSegment,
} from '@livekit/protocol';
import { spawnMediaServer, type MediaServerProcess } from '../test/support/media-server-process';
import { startBystander, type Bystander } from '../test/support/bystander';
import { serveLiveKitClientPage } from '../test/support/livekit-page';
import { startSttServer, type SttServer } from '../test/support/stt-server';
import { createSeededDatabase, startAppServer, type AppServer, type SeededDatabase } from './support/app';
import { expectRemoteVideoAdvancing } from './support/call';

/**
 * Issue 46 items 5–6: a VIEWER floods `lk.transcription` (text streams, and LiveKit's older
 * transcription packets), sends deflate bombs (7 packets, ~64 KB on the wire, 64 MB inflated) and
 * then five seconds of inline bombs on livekit-client's RPC topic, first while the room has no
 * captions running, then while it has. The VIEWER is LiveKit's own browser client on a bare page,
 * writing raw DataPackets on its data channel (what no SDK call sends). Bob's call page in the same
 * room stays responsive, shows none of it in the captions overlay, does not crash and keeps playing
 * Ada's video; a bystander in another room of the same media server keeps answering its pings.
 */

/**
 * The victim's page stays responsive: no task holds its main thread 500 ms or longer (the
 * browser's long-task timing). Unguarded, each RPC bomb alone held it ~100 ms and five seconds of
 * them froze the tab for minutes; behind the data-stream gate its longest task was 50–166 ms here,
 * the rest of the bound being what three call pages and the server on two cores cost it. Its round
 * trip through the test harness (page.evaluate, over the same Playwright connection that carries
 * the attacker's 84 KB batches ten times a second) is held to 2 s: it measures the harness as much
 * as the page (224 ms in one CI run, 1.6 s in a run on a machine at load 9).
 */
const VICTIM_LONGEST_TASK_MS = 500;
const VICTIM_ROUND_TRIP_MS = 2000;
/**
 * What the attack may add to the bystander's worst ping in the same attempt's quiet window: 1 s
 * rather than the 250 ms of the hostile specs without call pages, as the three Chromium call pages
 * (two encoding 720p cameras, their browser processes at a higher priority than the media server)
 * share the two cores with it; before any attack, in the quiet window, its worst ping was 23 ms
 * to 2.3 s across runs (2.3 s at load 12). What this spec guards against took seconds: a stranger
 * or a VIEWER stalled a bystander 4.3 to 51 s before the server was hardened.
 */
const BYSTANDER_WITH_CALLS_PING_MS = 1000;
const FLOOD_SECONDS = 15;
/** Then inline bombs on livekit-client's RPC topic, for this long. */
const RPC_BOMB_SECONDS = 5;
/**
 * Under the media server's per-sender data budget (100 packets/s, 1 MiB/s): every stream packet is
 * relayed (the transcription packets are not: the media server relays those from agents only).
 */
const PACKETS_PER_SECOND = 60;
const CHUNK_BYTES = 14_000;
const TOPIC = 'lk.transcription';

let media: MediaServerProcess;
let database: SeededDatabase;
let app: AppServer;
let stt: SttServer;
let bystander: Bystander;
let lkPage: Awaited<ReturnType<typeof serveLiveKitClientPage>>;

// Two retries, still: on this 2-core machine the bystander's ping was 852 ms before any attack
// began (its "quiet" line) in one CI run. Each attempt holds the same bounds; a third failure
// fails the run.
test.describe.configure({ mode: 'serial', timeout: 300_000, retries: 2 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const apiKey = `APIhc${randomBytes(6).toString('hex')}`;
  const apiSecret = randomBytes(32).toString('base64url');
  media = await spawnMediaServer({ apiKey, apiSecret });
  stt = await startSttServer('hello');
  database = await createSeededDatabase(process.env.E2E_POSTGRES_ADMIN_URL!);
  app = await startAppServer(database.url, {
    LIVEKIT_URL: media.url,
    LIVEKIT_API_KEY: apiKey,
    LIVEKIT_API_SECRET: apiSecret,
    STT_BASE_URL: stt.baseUrl,
  });
  bystander = await startBystander(media, 'hostile-captions-bystanders');
  lkPage = await serveLiveKitClientPage();
});

test.afterAll(async () => {
  await bystander?.stop();
  await lkPage?.close();
  await app?.stop();
  await media?.stop();
  await database?.drop();
  await stt?.close();
});

async function tenantApi() {
  const { providerKey } = JSON.parse(database.seed) as { providerKey: string };
  const created = await fetch(`${app.baseUrl}/api/v1/provider/tenants`, {
    method: 'POST',
    headers: { 'x-provider-key': providerKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Hostile captions ${Date.now()}`, plan: 'growth' }),
  });
  expect(created.status).toBe(201);
  const key = (await created.json()).apiKey.plainTextKey as string;
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

const packet = (value: DataPacket['value']) => new DataPacket({ kind: DataPacket_Kind.RELIABLE, value }).toBinary();

function streamHeader(
  streamId: string,
  { compressed = false, inline }: { compressed?: boolean; inline?: Uint8Array } = {},
) {
  return packet({
    case: 'streamHeader',
    value: new DataStream_Header({
      streamId,
      timestamp: BigInt(Date.now()),
      topic: TOPIC,
      mimeType: 'text/plain',
      attributes: { 'lk.segment_id': streamId, 'lk.transcription_final': 'false' },
      compression: compressed ? DataStream_CompressionType.DEFLATE_RAW : DataStream_CompressionType.NONE,
      contentHeader: {
        case: 'textHeader',
        value: new DataStream_TextHeader({ operationType: DataStream_OperationType.CREATE }),
      },
      ...(inline ? { inlineContent: inline } : {}),
    }),
  });
}
const streamChunk = (streamId: string, index: number, content: Uint8Array) =>
  packet({ case: 'streamChunk', value: new DataStream_Chunk({ streamId, chunkIndex: BigInt(index), content }) });
const streamTrailer = (streamId: string) =>
  packet({ case: 'streamTrailer', value: new DataStream_Trailer({ streamId, reason: '' }) });

/** The bomb: one compressed text stream of 64 MB in 7 packets (header, 5 chunks, trailer). */
function deflateBomb(): Uint8Array[] {
  const compressed = deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 'A'), { level: 9 });
  const id = `bomb-${randomBytes(4).toString('hex')}`;
  const size = Math.ceil(compressed.length / 5);
  const chunks = [0, 1, 2, 3, 4].map((i) => streamChunk(id, i, compressed.subarray(i * size, (i + 1) * size)));
  return [streamHeader(id, { compressed: true }), ...chunks, streamTrailer(id)];
}

/** The same in one packet: a compressed header whose inline content inflates to ~14 MB. */
function inlineBomb(): Uint8Array[] {
  const inline = deflateRawSync(Buffer.alloc(14 * 1024 * 1024, 'B'), { level: 9 });
  return [streamHeader(`inline-${randomBytes(4).toString('hex')}`, { compressed: true, inline })];
}

/**
 * `count` single-packet streams on livekit-client's own RPC topic (which it reads in every call),
 * each a compressed header whose inline content inflates to ~14 MB: ungated, every one costs the
 * victim's tab ~100 ms of its one thread before anything can refuse it.
 */
function* rpcBombs(count: number): Generator<Uint8Array> {
  const inline = deflateRawSync(Buffer.alloc(14 * 1024 * 1024, 'C'), { level: 9 });
  for (let i = 0; i < count; i++) {
    const streamId = `rpc-${randomBytes(4).toString('hex')}`;
    yield packet({
      case: 'streamHeader',
      value: new DataStream_Header({
        streamId,
        timestamp: BigInt(Date.now()),
        topic: 'lk.rpc_request',
        mimeType: 'text/plain',
        attributes: {
          'lk.rpc_request_id': streamId,
          'lk.rpc_request_method': 'anything',
          'lk.rpc_request_response_timeout_ms': '10000',
          'lk.rpc_request_version': '2',
        },
        compression: DataStream_CompressionType.DEFLATE_RAW,
        contentHeader: { case: 'textHeader', value: new DataStream_TextHeader({}) },
        inlineContent: inline,
      }),
    });
  }
}

/**
 * A flood of `packets` packets: text streams of 14 KB chunks on lk.transcription (a new stream
 * every 50 chunks, none of them ever finished), and between them LiveKit's older transcription
 * packets naming Bob as the speaker, each a 14 KB segment of its own.
 */
function* flood(packets: number, victimIdentity: string): Generator<Uint8Array> {
  const text = new TextEncoder().encode('forged caption '.repeat(CHUNK_BYTES / 15));
  let streamId = '';
  let index = 0;
  for (let i = 0; i < packets; i++) {
    if (i % 5 === 4) {
      yield packet({
        case: 'transcription',
        value: new Transcription({
          transcribedParticipantIdentity: victimIdentity,
          trackId: '',
          segments: [
            new TranscriptionSegment({ id: `seg-${i}`, text: 'forged segment '.repeat(900), final: i % 2 === 0 }),
          ],
        }),
      });
      continue;
    }
    if (index % 50 === 0) {
      streamId = `flood-${randomBytes(4).toString('hex')}`;
      index = 0;
      yield streamHeader(streamId);
      continue;
    }
    yield streamChunk(streamId, index - 1, text);
    index++;
  }
}

/** Mallory: livekit-client on a bare page, her reliable data channel reachable for raw packets. */
async function hostileClient(browser: Browser, url: string, token: string) {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript(() => {
    const create = RTCPeerConnection.prototype.createDataChannel;
    RTCPeerConnection.prototype.createDataChannel = function (label, init) {
      const channel = create.call(this, label, init);
      if (label === '_reliable') (window as unknown as { reliable: RTCDataChannel }).reliable = channel;
      return channel;
    };
  });
  await page.goto(lkPage.url);
  await page.evaluate(
    async ({ url, token }) => {
      const room = new (window as any).LivekitClient.Room();
      await room.connect(url, token);
      (window as any).room = room;
    },
    { url, token },
  );
  await page.waitForFunction(() => (window as any).reliable?.readyState === 'open');
  // Her join settles (she subscribes to Ada's and Bob's tracks) before anything is measured.
  await page.waitForFunction(() =>
    [...(window as any).room.remoteParticipants.values()].every(
      (p: any) => p.trackPublications.size > 0 && [...p.trackPublications.values()].every((t: any) => t.isSubscribed),
    ),
  );
  /** Sends raw packets on her reliable channel, paced to PACKETS_PER_SECOND. */
  return async (packets: Iterable<Uint8Array>) => {
    const batch = PACKETS_PER_SECOND / 10;
    let pending: string[] = [];
    const started = Date.now();
    let sent = 0;
    const flush = async () => {
      await page.evaluate((b64s) => {
        const channel = (window as unknown as { reliable: RTCDataChannel }).reliable;
        for (const b64 of b64s) channel.send(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
      }, pending);
      sent += pending.length;
      pending = [];
      const due = started + (sent / PACKETS_PER_SECOND) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    };
    for (const bytes of packets) {
      pending.push(Buffer.from(bytes).toString('base64'));
      if (pending.length >= batch) await flush();
    }
    if (pending.length) await flush();
    return sent;
  };
}

/**
 * Watches a page while the attack runs: its longest main-thread task (the browser's long tasks),
 * its worst round trip, the most captions text shown, a crash.
 */
async function watch(page: Page) {
  const seen = {
    longestTaskMs: 0,
    worstRoundTripMs: 0,
    mostCaptionChars: 0,
    crashed: false,
    pageErrors: [] as string[],
  };
  page.on('crash', () => (seen.crashed = true));
  page.on('pageerror', (err) => seen.pageErrors.push(err.message));
  await page.evaluate(() => {
    const w = window as unknown as { longestTaskMs: number; longTasks?: PerformanceObserver };
    w.longestTaskMs = 0;
    w.longTasks ??= new PerformanceObserver((list) => {
      for (const task of list.getEntries()) w.longestTaskMs = Math.max(w.longestTaskMs, task.duration);
    });
    w.longTasks.observe({ type: 'longtask' });
  });
  const longestTask = () =>
    page.evaluate(() => (window as unknown as { longestTaskMs: number }).longestTaskMs).catch(() => -1);
  let running = true;
  const loop = (async () => {
    while (running && !seen.crashed) {
      const started = Date.now();
      const chars = await page
        .evaluate(() => document.querySelector('[data-testid="captions"]')?.textContent?.length ?? -1)
        .catch(() => -2);
      seen.worstRoundTripMs = Math.max(seen.worstRoundTripMs, Date.now() - started);
      seen.mostCaptionChars = Math.max(seen.mostCaptionChars, chars);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    seen,
    async stop() {
      running = false;
      await loop;
      seen.longestTaskMs = Math.round(await longestTask());
      return seen;
    },
  };
}

async function enterCall(browser: Browser, joinUrl: string) {
  const page = await (await browser.newContext({ permissions: ['camera', 'microphone'] })).newPage();
  await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-control-bar')).toBeVisible({ timeout: 30_000 });
  return page;
}

test('a viewer’s transcription flood and deflate bombs freeze no one: not the page in the call, not another room', async ({
  browser,
}) => {
  const api = await tenantApi();
  const room = (
    await api('POST', '/api/v1/rooms', { name: 'Hostile captions', createdByExternalId: 'e2e', enableAiFeatures: true })
  ).body;
  const join = async (externalUserId: string, displayName: string, role: string) =>
    (await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId, displayName, role })).body;
  const ada = await join('ada', 'Ada', 'HOST');
  const bob = await join('bob', 'Bob', 'ATTENDEE');
  const mallory = await join('mallory', 'Mallory', 'VIEWER');

  const adaPage = await enterCall(browser, ada.joinUrl);
  const bobPage = await enterCall(browser, bob.joinUrl);
  await expectRemoteVideoAdvancing(bobPage, 1);
  const bobIdentity: string = bob.participant.mediaIdentity;
  const send = await hostileClient(browser, mallory.mediaUrl, mallory.token);

  // The same window with no attack, for comparison on a loaded machine: the attack may add less
  // than BYSTANDER_WITH_CALLS_PING_MS to what the bystander saw without it.
  bystander.reset();
  const quiet = (await bystander.check(5000)).worstPingMs;
  console.log(`quiet: bystander worst ping ${quiet} ms`);

  const attack = async (phase: string) => {
    bystander.reset();
    const victim = await watch(bobPage);
    const sent =
      (await send(flood(FLOOD_SECONDS * PACKETS_PER_SECOND, bobIdentity))) +
      (await send(deflateBomb())) +
      (await send(inlineBomb())) +
      (await send(rpcBombs(RPC_BOMB_SECONDS * PACKETS_PER_SECOND)));
    // The bombs inflate in the victim's tab after they arrive: watch a while longer.
    await new Promise((r) => setTimeout(r, 5000));
    const seen = await victim.stop();
    const aside = await bystander.check();
    const figures = `${sent} packets; victim longest task ${seen.longestTaskMs} ms, worst round trip ${seen.worstRoundTripMs} ms, captions ${seen.mostCaptionChars} chars; bystander worst ping ${aside.worstPingMs} ms, media server RSS +${aside.rssGrowthMiB} MiB`;
    console.log(`${phase}: ${figures}`);
    test.info().annotations.push({ type: phase, description: figures });
    expect(seen.crashed).toBe(false);
    expect(seen.longestTaskMs).toBeGreaterThanOrEqual(0); // the observer answered
    expect(seen.longestTaskMs).toBeLessThan(VICTIM_LONGEST_TASK_MS);
    expect(seen.worstRoundTripMs).toBeLessThan(VICTIM_ROUND_TRIP_MS);
    // Nothing from her is shown (the overlay is there, empty), however much she sent.
    expect(seen.mostCaptionChars).toBe(0);
    expect(aside.connected).toBe(true);
    expect(aside.worstPingMs).toBeLessThan(quiet + BYSTANDER_WITH_CALLS_PING_MS);
    return seen;
  };

  // Captions off: the page reads no transcription at all.
  await attack('captions off');

  // Captions on (the server names its agent): still nothing from her, only the agent is believed.
  expect((await api('POST', '/api/v1/captions/start', { roomId: room.id, language: 'en' })).status).toBe(200);
  await expect
    .poll(() =>
      bobPage.evaluate(
        async (t) =>
          (await (await fetch('/api/v1/me/captions', { headers: { authorization: `Bearer ${t}` } })).json()).active,
        bob.token,
      ),
    )
    .toBe(true);
  await new Promise((r) => setTimeout(r, 1000)); // the page's own read or the live update
  const on = await attack('captions on');

  // Still in the call, still playing Ada's video, and answering.
  await expectRemoteVideoAdvancing(bobPage, 1);
  await expect(bobPage.locator('.lk-control-bar')).toBeVisible();
  test.info().annotations.push({ type: 'page errors', description: on.pageErrors.slice(0, 3).join(' | ') || 'none' });
  await adaPage.context().close();
  await bobPage.context().close();
});
