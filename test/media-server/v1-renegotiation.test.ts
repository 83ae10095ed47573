/**
 * v1 signaling's receive sections. A joining client's offer carries receive sections for the
 * tracks already in the room: they are answered with those tracks, and nothing more is asked of
 * the client while it connects (an ask made before its offer was read cost it a renegotiation).
 *
 * And a client's offer that lacks a track it announced. LiveKit's Rust SDK can lose its
 * own renegotiation (a track added while it is offering for the server's MediaSectionsRequirement
 * is never offered): once in about twenty joins under load, the person already in never heard the
 * one who joined. The server asks such a client to offer once more, and only once per track. A raw
 * v1 client plays that client here, so the case happens every time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AddTrackRequest, TrackSource, TrackType } from '@livekit/protocol';
import { MediaStream, MediaStreamTrack, RTCPeerConnection } from 'werift';
import type { DevMediaServer } from '@/media-server';
import { mediaToken, micAndCameraPublisher } from '../support/rtc-node-media';
import { until } from '../support/until';
import { v1Client } from '../support/v1-client';
import { mediaServerWithWebhooks } from '../support/media-server-webhooks';

let media: DevMediaServer;
let hooks: Awaited<ReturnType<typeof mediaServerWithWebhooks>>['hooks'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ media, hooks, close } = await mediaServerWithWebhooks());
});

afterAll(async () => {
  await close?.();
});

it("answers a joining v1 client's offer with the room's tracks in its receive sections, asking for no more", async () => {
  const room = 'v1-join-sections';
  const publisher = await micAndCameraPublisher({ url: media.url, token: await mediaToken(media, room, 'already-in') });
  // Subscribed to once its media arrives, which track_published says.
  await until(
    async () =>
      (await hooks()).filter((e) => e.event === 'track_published' && e.room?.name === room).length === 2
        ? true
        : undefined,
    "the publisher's media on the server",
    10_000,
  );
  // As livekit-client's first v1 offer: receive sections made ahead, beside the data channel.
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  pc.createDataChannel('_reliable');
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addTransceiver('video', { direction: 'recvonly' });
  const joiner = await v1Client({ url: media.url, token: await mediaToken(media, room, 'joiner'), pc });
  try {
    const answer = joiner.messages.find((m) => m.case === 'answer')!.value as { midToTrackId: Record<string, string> };
    expect(Object.keys(answer.midToTrackId)).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(joiner.count('mediaSectionsRequirement')).toBe(0);
  } finally {
    await joiner.close();
    await publisher.leave();
  }
});

it('asks a v1 client once more for a track its offer left out, and only once', async () => {
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  pc.createDataChannel('_reliable');
  const client = await v1Client({ url: media.url, token: await mediaToken(media, 'v1-renegotiation', 'rusty'), pc });
  const asked = () => client.count('mediaSectionsRequirement');
  try {
    client.send({
      case: 'addTrack',
      value: new AddTrackRequest({ cid: 'mic', name: 'mic', type: TrackType.AUDIO, source: TrackSource.MICROPHONE }),
    });
    await until(() => (client.count('trackPublished') === 1 ? true : undefined), 'the track published', 10_000);

    // An offer that left the announced track out (one of the client's own, made before it added it).
    await client.offer(2);
    await until(() => (asked() === 1 ? true : undefined), 'the ask for an offer', 5_000);
    // Still missing after the ask: not asked again (a client that never sends it costs one ask).
    await client.offer(3);
    await new Promise((r) => setTimeout(r, 1500));
    expect(asked()).toBe(1);

    // The track in the next offer: the server receives it (its section answered for receiving).
    const transceiver = pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), {
      direction: 'sendonly',
      streams: [new MediaStream({ id: 'rusty' })],
    });
    (transceiver.sender as { trackId: string }).trackId = 'mic';
    const answer = await client.offer(4);
    expect(answer.sdp).toMatch(/m=audio [^\r\n]+\r\n(?:[^m][^\r\n]*\r\n)*a=recvonly/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(asked()).toBe(1);
  } finally {
    await client.close();
  }
});
