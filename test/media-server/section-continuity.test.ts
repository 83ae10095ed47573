/**
 * v1 signaling reuses a receive section freed when its track went away for a later track: its
 * sender keeps its SSRC, so the new track's RTP continues the old one's. The sequence numbers go
 * on by one; the timestamps by the time passed since the section's last packet (as LiveKit's
 * forwarder does on a source switch), not by one tick: a receiver (Chrome) read the first frames
 * of a track sent seconds later as due seconds in the past, its jitter buffer held them back, and
 * the person already in saw someone who joined on a reused section up to 2 s late.
 *
 * A raw v1 client (werift) watches, since only it shows the RTP as sent: one person publishes a
 * camera on its section and leaves, and after a pause another's camera takes the same section.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MediaStreamTrack, RTCPeerConnection } from 'werift';
import type { MediaSectionsRequirement } from '@livekit/protocol';
import type { DevMediaServer } from '@/media-server';
import { mediaToken, micAndCameraPublisher } from '../support/rtc-node-media';
import { cleanUpWithin, until } from '../support/until';
import { v1Client } from '../support/v1-client';
import { mediaServerWithWebhooks } from '../support/media-server-webhooks';

const ROOM = 'section-continuity';
const PAUSE_MS = 2000;

let media: DevMediaServer;
let hooks: Awaited<ReturnType<typeof mediaServerWithWebhooks>>['hooks'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ media, hooks, close } = await mediaServerWithWebhooks());
});

afterAll(async () => {
  await close?.();
});

/** How many webhook events of this kind the room has had. */
const events = async (kind: string) => (await hooks()).filter((e) => e.event === kind && e.room?.name === ROOM).length;

/** An rtc-node participant publishing a microphone and a camera, fed a sine and grey frames until it leaves. */
const publisher = async (identity: string) =>
  micAndCameraPublisher({ url: media.url, token: await mediaToken(media, ROOM, identity) });

it("continues a reused section's RTP timestamps by the time that passed, not by one tick", {
  timeout: 60_000,
}, async () => {
  // As livekit-client's first v1 offer: receive sections made ahead, beside the data channel.
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  pc.createDataChannel('_reliable');
  pc.addTransceiver('audio', { direction: 'recvonly' });
  const videoSection = pc.addTransceiver('video', { direction: 'recvonly' });

  // Every video packet the watcher receives, as it arrives.
  const packets: { ssrc: number; seq: number; ts: number; at: number }[] = [];
  const watched = new WeakSet<MediaStreamTrack>();
  const watch = (track: MediaStreamTrack) => {
    if (track.kind !== 'video' || watched.has(track)) return;
    watched.add(track);
    track.onReceiveRtp.subscribe((rtp) =>
      packets.push({
        ssrc: rtp.header.ssrc,
        seq: rtp.header.sequenceNumber,
        ts: rtp.header.timestamp,
        at: performance.now(),
      }),
    );
  };
  pc.onTrack.subscribe(watch);

  const watcher = await v1Client({ url: media.url, token: await mediaToken(media, ROOM, 'watcher'), pc });
  // Offers again at each MediaSectionsRequirement, with the receive sections asked for, as livekit-client does.
  let offers = 1;
  let offersAnswered = 1;
  let asksSeen = 0;
  let renegotiating = Promise.resolve();
  let renegotiationError: unknown;
  const driver = setInterval(() => {
    const asks = watcher.messages.filter((m) => m.case === 'mediaSectionsRequirement');
    for (const ask of asks.slice(asksSeen)) {
      asksSeen++;
      const { numAudios, numVideos } = ask.value as MediaSectionsRequirement;
      renegotiating = renegotiating.then(async () => {
        for (let i = 0; i < numAudios; i++) pc.addTransceiver('audio', { direction: 'recvonly' });
        for (let i = 0; i < numVideos; i++) pc.addTransceiver('video', { direction: 'recvonly' });
        await watcher.offer(++offers);
        offersAnswered++;
        for (const t of pc.getTransceivers()) for (const track of t.receiver.tracks) watch(track);
      });
      renegotiating = renegotiating.catch((err) => {
        renegotiationError ??= err;
      });
    }
  }, 50);

  let first: Awaited<ReturnType<typeof publisher>> | undefined;
  let second: Awaited<ReturnType<typeof publisher>> | undefined;
  try {
    first = await publisher('first');
    await until(() => (packets.length >= 20 ? true : undefined), "the first person's camera at the watcher", 30_000);

    const offersBefore = offers;
    await first.leave();
    await until(async () => ((await events('participant_left')) === 1 ? true : undefined), 'the first one gone');
    // Its sections answered inactive (free for the next track), then a pause with nothing sent on them.
    await until(() => {
      if (renegotiationError) throw renegotiationError;
      return offers > offersBefore && offersAnswered === offers ? true : undefined;
    }, 'the freed sections answered');
    const firstLast = packets.at(-1)!;
    const firstCount = packets.length;
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    expect(packets.length).toBe(firstCount);

    second = await publisher('second');
    await until(() => (packets.length > firstCount ? true : undefined), "the second person's camera at the watcher");
    const secondFirst = packets[firstCount];

    // The same section and sender: otherwise nothing here is about continuity.
    expect(videoSection.receiver.tracks.map((t) => t.ssrc)).toContain(secondFirst.ssrc);
    expect(secondFirst.ssrc).toBe(firstLast.ssrc);
    expect(pc.getTransceivers().filter((t) => t.kind === 'video')).toHaveLength(1);

    expect(secondFirst.seq).toBe((firstLast.seq + 1) % 2 ** 16);
    const elapsedMs = secondFirst.at - firstLast.at;
    const expected = (elapsedMs / 1000) * 90_000;
    const step = (secondFirst.ts - firstLast.ts + 2 ** 32) % 2 ** 32;
    expect(elapsedMs).toBeGreaterThan(PAUSE_MS);
    expect(step, `timestamp step after ${elapsedMs.toFixed(0)} ms`).toBeGreaterThan(0.5 * expected);
    expect(step, `timestamp step after ${elapsedMs.toFixed(0)} ms`).toBeLessThan(1.5 * expected);
  } finally {
    clearInterval(driver);
    for (const person of [first, second]) if (person) await cleanUpWithin('a publisher leaving', () => person.leave());
    await watcher.close();
  }
});
