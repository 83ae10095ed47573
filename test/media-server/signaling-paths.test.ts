/**
 * Both of LiveKit's signaling paths on the development media server, driven by the unchanged
 * livekit-client in Chromium: v1 (`/rtc/v1`, one peer connection, the client's default) and v0
 * (`/rtc`, publisher and subscriber connections, what `singlePeerConnection: false` asks for).
 * On each, two people see and hear each other while a third joins and leaves, and no page logs
 * an error (a failed path, a refused ICE candidate, a renegotiation gone wrong). And a server
 * without v1, as LiveKit before it: livekit-client falls back to v0 there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from '@playwright/test';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { mediaToken } from '../support/rtc-node-media';
import { holds } from '../support/until';

let media: DevMediaServer;
let page: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let browser: Browser;

beforeAll(async () => {
  media = await startDevMediaServer({ departureTimeoutMs: 1000 });
  page = await serveLiveKitClientPage();
  browser = await launchChromiumWithFakeDevices();
});

afterAll(async () => {
  await browser?.close();
  await page?.close();
  await media?.close();
});

interface Person {
  page: Page;
  /** Console errors and uncaught exceptions, as the page logged them. */
  errors: string[];
  /** The signaling WebSocket addresses the page opened. */
  sockets: string[];
}

async function join(room: string, identity: string, singlePeerConnection: boolean, server = media): Promise<Person> {
  const person: Person = { page: await browser.newPage(), errors: [], sockets: [] };
  person.page.on('console', (m) => m.type() === 'error' && person.errors.push(m.text()));
  person.page.on('pageerror', (err) => person.errors.push(err.message));
  person.page.on('websocket', (ws) => person.sockets.push(new URL(ws.url()).pathname));
  await person.page.goto(page.url);
  await person.page.evaluate(
    async ({ url, jwt, singlePeerConnection }) => {
      const w = window as any;
      const room = new w.LivekitClient.Room({ singlePeerConnection });
      w.room = room;
      w.remote = [];
      room.on('trackSubscribed', (track: any, _pub: unknown, participant: any) => {
        w.remote.push(track);
        // Chromium plays remote audio into WebAudio only while an element plays it.
        const el = track.attach();
        el.dataset.identity = participant.identity;
        document.body.appendChild(el);
      });
      await room.connect(url, jwt);
      await room.localParticipant.enableCameraAndMicrophone();
    },
    { url: server.url, jwt: await mediaToken(server, room, identity), singlePeerConnection },
  );
  return person;
}

/** Frames decoded from the remote camera and the loudest remote audio sample (the fake microphone beeps). */
function received(person: Person) {
  return person.page.evaluate(async () => {
    const remote = (window as any).remote as any[];
    const frames = Math.max(
      0,
      ...[...document.querySelectorAll('video')].map((v) => v.getVideoPlaybackQuality().totalVideoFrames),
    );
    let peak = 0;
    const audio = remote.filter((t) => t.kind === 'audio');
    if (audio.length) {
      const ctx = new AudioContext();
      const analyser = ctx.createAnalyser();
      await ctx.resume();
      for (const t of audio) ctx.createMediaStreamSource(new MediaStream([t.mediaStreamTrack])).connect(analyser);
      const samples = new Float32Array(2048);
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 100));
        analyser.getFloatTimeDomainData(samples);
        for (const v of samples) peak = Math.max(peak, Math.abs(v));
      }
      await ctx.close();
    }
    return { frames, peak };
  });
}

describe.each([
  { path: 'v1', singlePeerConnection: true, socket: '/rtc/v1' },
  { path: 'v0', singlePeerConnection: false, socket: '/rtc' },
])('signaling $path', { timeout: 90_000 }, ({ path, singlePeerConnection, socket }) => {
  it('carries a call with no console error while others join and leave', async () => {
    const room = `paths-${path}`;
    const ada = await join(room, 'ada', singlePeerConnection);
    const bob = await join(room, 'bob', singlePeerConnection);
    for (const [who, person] of [
      ['ada', ada],
      ['bob', bob],
    ] as const) {
      let last = {};
      await holds(`${who} sees and hears the other on ${path} (last ${JSON.stringify(last)})`, async () => {
        const { frames, peak } = await received(person);
        last = { frames, peak };
        return frames > 5 && peak > 0.001;
      });
    }
    const cleo = await join(room, 'cleo', singlePeerConnection);
    await holds('cleo sees two cameras', () =>
      cleo.page.evaluate(() => (window as any).remote.filter((t: any) => t.kind === 'video').length === 2),
    );
    await cleo.page.evaluate(() => (window as any).room.disconnect());
    await holds('cleo gone for ada', () =>
      ada.page.evaluate(() => !(window as any).room.remoteParticipants.has('cleo')),
    );
    // Someone joining after a departure is seen too (v1: in the receive sections cleo's tracks freed).
    const dan = await join(room, 'dan', singlePeerConnection);
    await holds('ada decodes dan', () =>
      ada.page.evaluate(() =>
        [...document.querySelectorAll<HTMLVideoElement>('video[data-identity="dan"]')].some(
          (v) => v.getVideoPlaybackQuality().totalVideoFrames > 5,
        ),
      ),
    );
    // Still flowing after the renegotiations a join and a leave cause.
    const before = (await received(bob)).frames;
    await holds('bob still decodes ada', async () => (await received(bob)).frames > before + 5);

    for (const person of [ada, bob, cleo, dan]) {
      expect(person.sockets).toEqual([socket]);
      expect(person.errors).toEqual([]);
      await person.page.close();
    }
  });

  // Leaving as one's tracks reach the others: the departure must not overtake them (a track of
  // someone no longer there is an error in livekit-client). Each leaves a little later after
  // publishing, across the time the others take to get the tracks.
  it('carries people who leave as soon as they have published, with no console error', async () => {
    const room = `quick-leave-${path}`;
    const ada = await join(room, 'ada', singlePeerConnection);
    for (let i = 0; i < 8; i++) {
      const quick = await join(room, `quick-${i}`, singlePeerConnection);
      await quick.page.waitForTimeout(i * 40);
      await quick.page.evaluate(() => (window as any).room.disconnect());
      expect(quick.errors).toEqual([]);
      await quick.page.close();
    }
    await holds('everyone gone for ada', () =>
      ada.page.evaluate(() => (window as any).room.remoteParticipants.size === 0),
    );
    expect(ada.errors).toEqual([]);
    await ada.page.close();
  });
});

it('on a server without v1 (as LiveKit before it), livekit-client asks why, takes v0 and carries the call', async () => {
  const v0Only = await startDevMediaServer({ v1: false });
  const people: Person[] = [];
  try {
    people.push(await join('v0-only', 'ada', true, v0Only), await join('v0-only', 'bob', true, v0Only));
    for (const person of people) {
      await holds('each sees and hears the other', async () => {
        const { frames, peak } = await received(person);
        return frames > 5 && peak > 0.001;
      });
      expect(person.sockets).toEqual(['/rtc/v1', '/rtc']);
    }
  } finally {
    for (const person of people) await person.page.close();
    await v0Only.close();
  }
}, 90_000);
