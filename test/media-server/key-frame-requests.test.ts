/**
 * A subscriber's key frame request reaches the publisher, however the subscriber signs it. A
 * browser that also publishes signs its RTCP feedback with one of its own sending SSRCs; werift
 * routes feedback by that SSRC first, so the request went to the server's receiver of that stream
 * and was lost, and a subscriber that missed the first key frame stayed black. A raw v1 client
 * (publishing a microphone, receiving a camera) sends such a request here.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { AddTrackRequest, TrackSource, TrackType } from '@livekit/protocol';
import {
  MediaStream,
  MediaStreamTrack,
  PictureLossIndication,
  RtcpPayloadSpecificFeedback,
  RTCPeerConnection,
} from 'werift';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { mediaToken } from '../support/rtc-node-media';
import { holds, until } from '../support/until';
import { v0Publisher } from '../support/v0-publisher';
import { v1Client } from '../support/v1-client';

const ROOM = 'key-frame-requests';
let media: DevMediaServer;

beforeAll(async () => {
  media = await startDevMediaServer({});
});

afterAll(async () => {
  await media?.close();
});

const token = (identity: string, canSubscribe: boolean) =>
  mediaToken(media, ROOM, identity, { grant: { canSubscribe } });

it('passes on a PLI signed with the SSRC of a stream the subscriber publishes', async () => {
  const camera = await v0Publisher({
    url: media.url,
    token: await token('cam', false),
    identity: 'cam',
    sections: [{ cid: 'cam', kind: 'video', announced: true }],
  });
  camera.sendSilence('cam'); // packets in the video section: the server learns its SSRC

  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  const mic = pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), {
    direction: 'sendonly',
    streams: [new MediaStream({ id: 'viewer' })],
  });
  (mic.sender as { trackId: string }).trackId = 'mic';
  pc.addTransceiver('video', { direction: 'recvonly' });
  let received: number | undefined;
  pc.onTrack.subscribe((track) => {
    if (track.kind === 'video') track.onReceiveRtp.subscribe((rtp) => (received ??= rtp.header.ssrc));
  });
  const client = await v1Client({
    url: media.url,
    token: await token('viewer', true),
    pc,
    addTrackRequests: [
      new AddTrackRequest({ cid: 'mic', name: 'mic', type: TrackType.AUDIO, source: TrackSource.MICROPHONE }),
    ],
  });
  try {
    // The camera bound to a receive section (asked for, then offered) and its packets arriving.
    for (let id = 2; received === undefined && id < 6; id++) {
      await until(() => (client.count('mediaSectionsRequirement') >= id - 1 || received ? true : undefined), 'an ask');
      if (received === undefined) await client.offer(id);
      await new Promise((r) => setTimeout(r, 300));
    }
    await holds('the camera received', () => received !== undefined);
    // The key frame asked for at connection is sent, and its 200 ms window passed.
    await holds('the first key frame request', () => camera.keyFrameRequests('cam') >= 1);
    await new Promise((r) => setTimeout(r, 500));
    const before = camera.keyFrameRequests('cam');

    const pli = new PictureLossIndication({ senderSsrc: mic.sender.ssrc, mediaSsrc: received! });
    await mic.sender.dtlsTransport.sendRtcp([new RtcpPayloadSpecificFeedback({ feedback: pli })]);
    await holds('the PLI at the publisher', () => camera.keyFrameRequests('cam') > before, 3_000);
  } finally {
    await client.close();
    await camera.leave();
  }
});
