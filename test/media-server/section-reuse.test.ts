/**
 * v1 signaling on one long-lived peer connection: a receive section freed when its track goes
 * away takes a later track, as on LiveKit. One person in Chromium (the unchanged livekit-client,
 * v1 by default) stays while 80 others join with a microphone and a camera and leave, a few at a
 * time: 160 tracks in all, past the 128 sections one offer may carry had each track taken a
 * section of its own. The one who stays is still connected, has few sections, and still hears and
 * sees the last one to join. The first 79 are raw v0 publishers (a socket and a werift peer
 * connection each: the sections are what is tested, and 80 SDK instances beside the other suites
 * overload a shared machine); the last is @livekit/rtc-node, sending a sine and frames.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from '@playwright/test';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { SESSION_LIMITS } from '@/media-server/rtc/limits';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { until } from '../support/until';
import { mediaToken, micAndCameraPublisher } from '../support/rtc-node-media';
import { v0Publisher } from '../support/v0-publisher';

const ROOM = 'section-reuse';
const CHURNERS = 80;
const AT_ONCE = 4;

let media: DevMediaServer;
let served: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let browser: Browser;
let stayer: Page;

const token = (identity: string) => mediaToken(media, ROOM, identity);

/** A raw publisher announcing a microphone and a camera that carry nothing. */
async function silentChurner(identity: string) {
  return v0Publisher({
    url: media.url,
    token: await mediaToken(media, ROOM, identity, { grant: { canSubscribe: false } }),
    identity,
    sections: [
      { cid: `${identity}-mic`, kind: 'audio', announced: true },
      { cid: `${identity}-camera`, kind: 'video', announced: true },
    ],
  });
}

/** An rtc-node participant publishing a microphone and a camera, sending a sine and grey frames until it leaves. */
const feedingChurner = async (identity: string) =>
  micAndCameraPublisher({ url: media.url, token: await token(identity) });

/** step, or a failure naming it after `ms` (an SDK call that hangs would otherwise show only as the test's timeout). */
function within<T>(what: string, step: Promise<T>, ms = 30_000) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

/** What the page in Chromium has: subscribed tracks by identity, its peer connections' sections, its state. */
const seen = () =>
  stayer.evaluate(() => {
    const w = window as any;
    return {
      state: w.room.state as string,
      subscribed: Object.fromEntries(
        [...w.room.remoteParticipants.values()].map((p: any) => [
          p.identity,
          [...p.trackPublications.values()].filter((t: any) => t.isSubscribed && t.track).length,
        ]),
      ) as Record<string, number>,
      sections: Math.max(0, ...w.pcs.map((pc: RTCPeerConnection) => pc.getTransceivers().length)),
    };
  });

beforeAll(async () => {
  media = await startDevMediaServer({ departureTimeoutMs: 5000 });
  served = await serveLiveKitClientPage();
  browser = await launchChromiumWithFakeDevices();
  stayer = await browser.newPage();
  // Keeps the page's peer connections reachable to count their sections.
  await stayer.addInitScript(() => {
    const w = window as any;
    w.pcs = [];
    const Native = window.RTCPeerConnection;
    w.RTCPeerConnection = function (this: unknown, ...args: ConstructorParameters<typeof RTCPeerConnection>) {
      const pc = new Native(...args);
      w.pcs.push(pc);
      return pc;
    } as unknown as typeof RTCPeerConnection;
    w.RTCPeerConnection.prototype = Native.prototype;
  });
  await stayer.goto(served.url);
  await stayer.evaluate(
    async ({ url, jwt }) => {
      const w = window as any;
      w.room = new w.LivekitClient.Room();
      w.room.on('trackSubscribed', (track: any, _pub: unknown, participant: any) => {
        const el = track.attach();
        el.dataset.identity = participant.identity;
        document.body.appendChild(el);
      });
      await w.room.connect(url, jwt);
    },
    { url: media.url, jwt: await token('stayer') },
  );
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await media?.close();
});

it(`keeps one v1 connection through ${CHURNERS} people joining with camera and microphone and leaving`, {
  timeout: 240_000, // about 30 s on an idle machine; the shared one is not
}, async () => {
  expect(2 * CHURNERS).toBeGreaterThan(SESSION_LIMITS.mediaSectionsPerOffer);
  let last: Awaited<ReturnType<typeof feedingChurner>> | undefined;
  let lastIdentity = '';
  for (let first = 0; first < CHURNERS; first += AT_ONCE) {
    const identities = Array.from({ length: AT_ONCE }, (_, i) => `churner-${first + i}`);
    const finalRound = first + AT_ONCE >= CHURNERS;
    const people: { leave(): Promise<unknown> }[] = await within(
      `${identities.join(', ')} joining`,
      Promise.all(
        identities.map((id, i) => (finalRound && i === AT_ONCE - 1 ? feedingChurner(id) : silentChurner(id))),
      ),
    );
    await until(
      async () => {
        const now = await seen();
        expect(now.state).toBe('connected');
        return identities.every((id) => now.subscribed[id] === 2) || undefined;
      },
      `the stayer subscribed to ${identities.join(', ')}`,
      30_000,
    );
    if (finalRound) {
      last = people.pop() as Awaited<ReturnType<typeof feedingChurner>>;
      lastIdentity = identities[AT_ONCE - 1];
    }
    await within(`${identities.join(', ')} leaving`, Promise.all(people.map((p) => p.leave())));
  }
  try {
    const now = await seen();
    expect(now.state).toBe('connected');
    // Its own sections plus about the most tracks it received at once, not one per track ever seen.
    expect(now.sections).toBeLessThan(4 * AT_ONCE + 8);
    await until(
      () =>
        stayer.evaluate((identity) => {
          const videos = [...document.querySelectorAll<HTMLVideoElement>(`video[data-identity="${identity}"]`)];
          return videos.some((v) => v.getVideoPlaybackQuality().totalVideoFrames > 5) || undefined;
        }, lastIdentity),
      `the stayer decodes ${lastIdentity}'s camera`,
      20_000,
    );
    await until(
      () =>
        stayer.evaluate(async (identity) => {
          const w = window as any;
          const track = [...w.room.remoteParticipants.get(identity).trackPublications.values()].find(
            (t: any) => t.kind === 'audio',
          )?.track;
          const ctx = new AudioContext();
          const analyser = ctx.createAnalyser();
          await ctx.resume();
          ctx.createMediaStreamSource(new MediaStream([track.mediaStreamTrack])).connect(analyser);
          const samples = new Float32Array(2048);
          let peak = 0;
          for (let i = 0; i < 5; i++) {
            await new Promise((r) => setTimeout(r, 100));
            analyser.getFloatTimeDomainData(samples);
            for (const v of samples) peak = Math.max(peak, Math.abs(v));
          }
          await ctx.close();
          return peak > 0.01 || undefined;
        }, lastIdentity),
      `the stayer hears ${lastIdentity}'s sine`,
      20_000,
    );
  } finally {
    await last?.leave();
  }
});
