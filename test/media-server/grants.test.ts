/**
 * Grants and announcements decide what the development media server relays, on every path: a
 * participant without canPublishData reaches nobody with data; RTP in a section no AddTrackRequest
 * announced is forwarded to nobody and takes no announced track's place; revoking canSubscribe
 * through the server API (UpdateParticipant) stops the media already flowing. Each negative is
 * proven next to a positive: the same receiver gets what is allowed. Participants are
 * @livekit/rtc-node, and a raw werift publisher speaking LiveKit's v0 signaling for what no SDK sends.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  Room,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  type RemoteParticipant,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { RoomServiceClient, type VideoGrant } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import type { SignalSession } from '@/media-server/rtc/session';
import { cleanUpWithin, holds } from '../support/until';
import { feedSine, mediaToken } from '../support/rtc-node-media';
import { v0Publisher } from '../support/v0-publisher';

let media: DevMediaServer;
const serverLog: string[] = [];
const stopAll: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  media = await startDevMediaServer({ departureTimeoutMs: 1000, log: (msg) => serverLog.push(msg) });
});

afterAll(async () => {
  await Promise.all(stopAll.map((stop) => cleanUpWithin('a participant leaving', stop)));
  await media?.close();
});

const token = (room: string, identity: string, grant: Partial<VideoGrant> = {}) =>
  mediaToken(media, room, identity, { grant });

/** Calls fn with each value the stream yields, until it ends. */
async function each<T>(stream: ReadableStream<T>, fn: (value: T) => void) {
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) fn(next.value);
}

/** An rtc-node participant recording the data and the audio energy it receives, by sender; `sine` publishes a microphone. */
async function participant(room: string, identity: string, opts: { grant?: Partial<VideoGrant>; sine?: boolean } = {}) {
  const lk = new Room();
  const received = { data: [] as string[], energy: new Map<string, number>() };
  lk.on('trackSubscribed', (track: RemoteTrack, _pub: unknown, from: RemoteParticipant) => {
    if (track.kind !== TrackKind.KIND_AUDIO) return;
    void each(new AudioStream(track, 48000, 1), (frame) => {
      let sum = 0;
      for (const sample of frame.data) sum += Math.abs(sample);
      received.energy.set(from.identity, (received.energy.get(from.identity) ?? 0) + sum);
    });
  });
  lk.on('dataReceived', (payload: Uint8Array, from?: RemoteParticipant) =>
    received.data.push(`${from?.identity}:${new TextDecoder().decode(payload)}`),
  );
  await lk.connect(media.url, await token(room, identity, opts.grant), { autoSubscribe: true, dynacast: false });
  let stopFeeding: () => Promise<void> = async () => undefined;
  if (opts.sine) {
    const audio = new AudioSource(48000, 1);
    await lk.localParticipant!.publishTrack(
      LocalAudioTrack.createAudioTrack('sine', audio),
      new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
    );
    stopFeeding = feedSine(audio);
  }
  const stop = async () => {
    await stopFeeding();
    await lk.disconnect();
  };
  stopAll.push(stop);
  return { room: lk, received, stop, energyFrom: (who: string) => received.energy.get(who) ?? 0 };
}

const session = (room: string, identity: string) =>
  media.rooms.get(room)?.participants.get(identity)?.link as SignalSession | undefined;

it('a participant without canPublishData reaches nobody with data, while others still do', async () => {
  const room = 'no-data';
  const quiet = await participant(room, 'quiet', { grant: { canPublishData: false } });
  const talker = await participant(room, 'talker');
  const listener = await participant(room, 'listener');
  await holds('everyone sees everyone', () =>
    [quiet, talker, listener].every((p) => p.room.remoteParticipants.size === 2),
  );

  for (const reliable of [true, false])
    await quiet.room.localParticipant!.publishData(new TextEncoder().encode(`forbidden-${reliable}`), { reliable });
  await holds('both packets refused at the server', () => session(room, 'quiet')?.dataPacketsRefused === 2);
  await talker.room.localParticipant!.publishData(new TextEncoder().encode('allowed'), { reliable: true });
  await holds('the allowed packet at the listener and at quiet', () =>
    [listener, quiet].every((p) => p.received.data.includes('talker:allowed')),
  );
  await new Promise((r) => setTimeout(r, 300));
  expect(listener.received.data).toEqual(['talker:allowed']);
  expect(talker.received.data).toEqual([]);
});

/**
 * A v0 publisher that announces one microphone (cid `mic`) but offers two audio sections, the
 * unannounced one (`hidden`) first, and sends RTP only there.
 */
async function unannouncedPublisher(room: string, identity: string) {
  const publisher = await v0Publisher({
    url: media.url,
    token: await token(room, identity, { canSubscribe: false }),
    identity,
    sections: [
      { cid: 'hidden', kind: 'audio', announced: false },
      { cid: 'mic', kind: 'audio', announced: true },
    ],
  });
  publisher.sendSilence('hidden');
  stopAll.push(publisher.leave);
  return { stop: publisher.leave };
}

it('RTP in a section no AddTrackRequest announced reaches nobody and takes no track’s place; others go on', async () => {
  const room = 'unannounced';
  const listener = await participant(room, 'listener');
  const mallory = await unannouncedPublisher(room, 'mallory');
  // The listener is subscribed to mallory's announced microphone, whose section carries nothing.
  await holds('the listener subscribed to the microphone', () =>
    [...(listener.room.remoteParticipants.get('mallory')?.trackPublications.values() ?? [])].some((p) => p.subscribed),
  );
  await holds('hidden RTP arriving at the server', () => (session(room, 'mallory')?.unannouncedRtp ?? 0) > 50);
  const forwardedBefore = media.stats().rtpOut;
  await holds('more hidden RTP arriving', () => (session(room, 'mallory')?.unannouncedRtp ?? 0) > 100);
  expect(media.stats().rtpOut).toBe(forwardedBefore);
  expect(serverLog).toContain('media without a published track from mallory (mid 0)');
  expect(listener.room.remoteParticipants.get('mallory')!.trackPublications.size).toBe(1);

  // Someone publishing in the same room is heard as before.
  await participant(room, 'singer', { sine: true });
  await holds('the listener hears the singer', () => listener.energyFrom('singer') > 0);
  expect(listener.energyFrom('mallory')).toBe(0);
  await mallory.stop();
});

it('revoking canSubscribe through UpdateParticipant stops the media flowing to that participant', async () => {
  const room = 'revoke-subscribe';
  const singer = await participant(room, 'singer', { sine: true });
  const listener = await participant(room, 'listener');
  const witness = await participant(room, 'witness');
  await holds('both hear the singer', () => listener.energyFrom('singer') > 0 && witness.energyFrom('singer') > 0);

  const api = new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret);
  await api.updateParticipant(room, 'listener', undefined, {
    canSubscribe: false,
    canPublish: true,
    canPublishData: true,
  });
  // What was in flight (and in the SDK's jitter buffer) when the grant changed: wait until nothing
  // more arrives for a second. Media still flowing never settles, and fails here.
  for (let settled = false, tries = 0; !settled; tries++) {
    expect(tries, 'the listener still receives the singer 10 s after the revoke').toBeLessThan(10);
    const before = listener.energyFrom('singer');
    await new Promise((r) => setTimeout(r, 1000));
    settled = listener.energyFrom('singer') === before;
  }
  const listenerHeard = listener.energyFrom('singer');
  const witnessHeard = witness.energyFrom('singer');
  await holds('the witness hears more', () => witness.energyFrom('singer') > witnessHeard * 2);
  expect(listener.energyFrom('singer')).toBe(listenerHeard);

  // Granted again: the media comes back.
  await api.updateParticipant(room, 'listener', undefined, {
    canSubscribe: true,
    canPublish: true,
    canPublishData: true,
  });
  await holds('the listener hears the singer again', () => listener.energyFrom('singer') > listenerHeard);
  await singer.stop();
});
