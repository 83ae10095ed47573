/**
 * Firefox's offers as the media server applies them (media-server/rtc/offer.ts, rtc/ice.ts), on an
 * offer Firefox ESR 153 wrote for livekit-client publishing a camera and a microphone (trimmed to
 * its first section and the two it sends in; its own lines otherwise). Each case is what kept a
 * Firefox participant invisible and silent: its bundle-only sections read as rejected, its
 * simulcast layers' SSRCs made tracks no packet reached, and its mDNS candidates stalled the answer.
 * e2e/firefox.spec.ts carries real calls with Firefox in the hosted UI.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { RTCPeerConnection, useAudioLevelIndication, useSdesMid, useSdesRTPStreamId } from 'werift';
import { ICE_RECEIVE_BUFFER_BYTES, iceOptions } from '@/media-server/rtc/ice';
import { ONE_STREAM_MAX_FS, readableOffer } from '@/media-server/rtc/offer';
import { CODECS, offeredCodecs, publisherCodecs, useCodecs } from '@/media-server/sfu/codecs';
import { until } from '../support/until';

const FIREFOX_OFFER = `${[
  'v=0',
  'o=mozilla...THIS_IS_SDPARTA-99.0 2593875950442259573 1 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  'a=fingerprint:sha-256 1A:B1:FD:20:62:D9:FD:94:D3:C7:20:0A:4C:22:DA:20:37:0A:A3:16:FE:7B:9E:05:D0:D8:53:A1:FD:8E:91:1A',
  'a=ice-options:trickle',
  'a=msid-semantic: WMS *',
  'a=group:BUNDLE 0 7 8',
  'm=audio 9 UDP/TLS/RTP/SAVPF 109',
  'c=IN IP4 0.0.0.0',
  'a=rtpmap:109 opus/48000/2',
  'a=fmtp:109 maxplaybackrate=48000;stereo=1;useinbandfec=1',
  'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  'a=extmap:2/recvonly urn:ietf:params:rtp-hdrext:csrc-audio-level',
  'a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'a=extmap-allow-mixed',
  'a=setup:actpass',
  'a=mid:0',
  'a=recvonly',
  'a=ice-ufrag:75f7518c',
  'a=ice-pwd:0177b9e19cb6029d06f9f54f2892de80',
  'a=candidate:0 1 UDP 2122187007 903ed5c2-4f2f-4ec9-9ce6-959da6517e3d.local 44765 typ host',
  'a=candidate:1 1 UDP 2122252543 01cde9a4-773e-4e86-bec1-2799867455c4.local 56480 typ host',
  'a=end-of-candidates',
  'a=ssrc:1627504258 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=rtcp-mux',
  'm=audio 0 UDP/TLS/RTP/SAVPF 109',
  'c=IN IP4 0.0.0.0',
  'a=rtpmap:109 opus/48000/2',
  'a=fmtp:109 maxplaybackrate=48000;stereo=1;useinbandfec=1',
  'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  'a=extmap:2/recvonly urn:ietf:params:rtp-hdrext:csrc-audio-level',
  'a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'a=extmap-allow-mixed',
  'a=setup:actpass',
  'a=mid:7',
  'a=msid:{e390d09d-281f-4b43-9397-e0fe09225e0f} {bc445833-41bb-4bf8-8835-12b3a1638662}',
  'a=sendonly',
  'a=ice-ufrag:75f7518c',
  'a=ice-pwd:0177b9e19cb6029d06f9f54f2892de80',
  'a=ssrc:53779669 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=rtcp-mux',
  'a=bundle-only',
  'm=video 0 UDP/TLS/RTP/SAVPF 120 124',
  'c=IN IP4 0.0.0.0',
  'a=rtpmap:120 VP8/90000',
  'a=rtpmap:124 rtx/90000',
  'a=fmtp:120 max-fs=12288;max-fr=60',
  'a=fmtp:124 apt=120',
  'a=rtcp-fb:120 nack',
  'a=rtcp-fb:120 nack pli',
  'a=rtcp-fb:120 ccm fir',
  'a=rtcp-fb:120 goog-remb',
  'a=rtcp-fb:120 transport-cc',
  'a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=extmap:4 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time',
  'a=extmap:5 urn:ietf:params:rtp-hdrext:toffset',
  'a=extmap:6/recvonly http://www.webrtc.org/experiments/rtp-hdrext/playout-delay',
  'a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'a=extmap:8/sendonly https://aomediacodec.github.io/av1-rtp-spec/#dependency-descriptor-rtp-header-extension',
  'a=extmap:9/sendonly urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id',
  'a=extmap:10/sendonly urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id',
  'a=extmap-allow-mixed',
  'a=setup:actpass',
  'a=mid:8',
  'a=msid:{276b9ac6-0933-4eae-be59-a85f009af2b3} {c35ce27c-526b-4843-94b5-aa0bda166caa}',
  'a=sendonly',
  'a=ice-ufrag:75f7518c',
  'a=ice-pwd:0177b9e19cb6029d06f9f54f2892de80',
  'a=ssrc:195284275 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=ssrc:3900176539 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=ssrc:3711756627 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=ssrc:4132144584 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=ssrc:1053884699 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=ssrc:3849347524 cname:{1c477906-15f8-44d9-a439-8aa457d95d21}',
  'a=ssrc-group:FID 195284275 3900176539',
  'a=ssrc-group:FID 3711756627 4132144584',
  'a=ssrc-group:FID 1053884699 3849347524',
  'a=rtcp-mux',
  'a=rtcp-rsize',
  'a=rid:q send',
  'a=rid:h send',
  'a=rid:f send',
  'a=simulcast:send q;h;f',
  'a=bundle-only',
].join('\r\n')}\r\n`;

/** The session's peer connection configuration (rtc/session.ts). */
const answerer = () =>
  new RTCPeerConnection({
    codecs: CODECS,
    headerExtensions: { audio: [useSdesMid(), useAudioLevelIndication()], video: [useSdesMid(), useSdesRTPStreamId()] },
    ...iceOptions(),
  });

const section = (sdp: string, mid: string) => sdp.split(/\r\n(?=m=)/).find((s) => s.includes(`\r\na=mid:${mid}\r\n`))!;

it('bundle-only sections are answered inside the bundle, the sending ones received', async () => {
  const pc = answerer();
  await pc.setRemoteDescription({ type: 'offer', sdp: readableOffer(FIREFOX_OFFER) });
  const answer = (await pc.createAnswer()).sdp;
  expect(answer).toContain('a=group:BUNDLE 0 7 8');
  for (const mid of ['7', '8']) {
    expect(section(answer, mid)).toMatch(/^m=\S+ 9 /);
    expect(section(answer, mid)).toContain('a=recvonly');
  }
  // One transport for all: one set of ICE credentials.
  expect(new Set(answer.match(/a=ice-ufrag:\S+/g)).size).toBe(1);
  await pc.close();
});

it('a section rejected for good (port 0 without bundle-only) stays rejected', () => {
  const rejected = FIREFOX_OFFER.replace(/(a=mid:7\r\n(?:.*\r\n)*?)a=bundle-only\r\n/, '$1');
  expect(section(readableOffer(rejected), '7')).toMatch(/^m=audio 0 /);
  expect(section(readableOffer(FIREFOX_OFFER), '7')).toMatch(/^m=audio 9 /);
});

it("Firefox's simulcast is answered as one stream, under its first layer's SSRCs", async () => {
  const video = section(readableOffer(FIREFOX_OFFER), '8');
  expect(video).not.toMatch(/a=rid:|a=simulcast:/);
  expect(video.match(/a=ssrc:\d+/g)).toEqual(['a=ssrc:195284275', 'a=ssrc:3900176539']);
  expect(video).toContain('a=ssrc-group:FID 195284275 3900176539');
  const pc = answerer();
  await pc.setRemoteDescription({ type: 'offer', sdp: readableOffer(FIREFOX_OFFER) });
  const answer = (await pc.createAnswer()).sdp;
  expect(section(answer, '8')).not.toContain('a=simulcast');
  const receiver = pc.getTransceivers().find((t) => t.mid === '8')!.receiver;
  expect(receiver.tracks.map((t) => t.ssrc)).toEqual([195284275]);
  await pc.close();
});

it("Chromium's simulcast (rids alone) keeps its middle layer", () => {
  const chromium = [
    'm=video 9 UDP/TLS/RTP/SAVPF 96',
    'a=mid:1',
    'a=sendonly',
    'a=rtpmap:96 VP8/90000',
    'a=rid:q send',
    'a=rid:h send',
    'a=rid:f send',
    'a=simulcast:send q;h;f',
  ].join('\r\n');
  const video = readableOffer(`v=0\r\n${chromium}\r\n`);
  expect(video).toContain('a=rid:h send\r\na=simulcast:send h');
  expect(video).not.toMatch(/a=rid:[qf] /);
});

it('an mDNS candidate is ignored at once, not looked up for 10 s inside the answer', { timeout: 3000 }, async () => {
  const pc = answerer();
  await pc.addIceCandidate({
    candidate: 'candidate:0 1 UDP 2122187007 903ed5c2-4f2f-4ec9-9ce6-959da6517e3d.local 44765 typ host',
    sdpMid: '0',
  });
  // As in Firefox's first offer, its candidates come trickled, none in the offer.
  const trickling = FIREFOX_OFFER.replace(/a=(candidate:[^\r]*|end-of-candidates)\r\n/g, '');
  await pc.setRemoteDescription({ type: 'offer', sdp: readableOffer(trickling) });
  expect(pc.remoteDescription).toBeDefined();
  await pc.close();
});

/** Firefox's next offer once its simulcast was answered as one stream: that stream's SSRCs, no rid. */
const FIREFOX_NEXT_OFFER = FIREFOX_OFFER.replace(/a=rid:[^\r]*\r\n|a=simulcast:[^\r]*\r\n/g, '')
  .replace(/a=ssrc:(3711756627|4132144584|1053884699|3849347524) [^\r]*\r\n/g, '')
  .replace(/a=ssrc-group:FID (3711756627|1053884699) [^\r]*\r\n/g, '');

/** The answer the session gives `offer`: the camera's section answered with the codec it offers (codecs.ts). */
async function answerTo(offer: string) {
  const pc = answerer();
  await pc.setRemoteDescription({ type: 'offer', sdp: offer });
  const camera = pc.getTransceivers().find((t) => t.mid === '8')!;
  useCodecs(camera, publisherCodecs(offeredCodecs(offer).get('8')!, undefined)!, { publishing: true });
  const answer = (await pc.createAnswer()).sdp;
  await pc.close();
  return answer;
}

it("asks for Firefox's one stream at 640×360 at most, in the answers to its later offers too", async () => {
  expect(ONE_STREAM_MAX_FS).toBe((640 * 360) / 256);
  const oneStream = new Set<string>();
  // Firefox's own max-fs (12288, what it decodes) is lowered, its other parameters kept.
  expect(section(await answerTo(readableOffer(FIREFOX_OFFER, oneStream)), '8')).toContain(
    `a=fmtp:120 max-fs=${ONE_STREAM_MAX_FS};max-fr=60`,
  );
  expect(section(await answerTo(readableOffer(FIREFOX_NEXT_OFFER, oneStream)), '8')).toContain(
    `a=fmtp:120 max-fs=${ONE_STREAM_MAX_FS};max-fr=60`,
  );
  // A section that never offered simulcast (Firefox's screen share) keeps the size it is sent at.
  expect(section(readableOffer(FIREFOX_NEXT_OFFER), '8')).toContain('a=fmtp:120 max-fs=12288;max-fr=60');
  // A codec offered without parameters is given the bound on a line of its own.
  const bare = readableOffer(FIREFOX_OFFER.replace('a=fmtp:120 max-fs=12288;max-fr=60\r\n', ''));
  expect(section(bare, '8')).toContain(`a=rtpmap:120 VP8/90000\r\na=fmtp:120 max-fs=${ONE_STREAM_MAX_FS}`);
});

/** Two of the media server's peer connections, connected over loopback with a data channel each way. */
async function connectedPair() {
  const [a, b] = [answerer(), answerer()];
  a.onIceCandidate.subscribe((c) => c && b.addIceCandidate(c.toJSON()));
  b.onIceCandidate.subscribe((c) => c && a.addIceCandidate(c.toJSON()));
  const fromA = a.createDataChannel('test');
  const toB = new Promise<{ onMessage: typeof fromA.onMessage; send: typeof fromA.send }>((resolve) =>
    b.onDataChannel.subscribe(resolve),
  );
  await a.setLocalDescription(await a.createOffer());
  await b.setRemoteDescription(a.localDescription!);
  await b.setLocalDescription(await b.createAnswer());
  await a.setRemoteDescription(b.localDescription!);
  await until(async () => (a.connectionState === 'connected' && fromA.readyState === 'open') || undefined, 'connected');
  const toA = await toB;
  return { a, b, fromA, toA };
}

type Consent = { state: string; consentFresh: boolean; setState(state: string): void };

it('each ICE socket asks the kernel for a receive buffer of 2 MiB (as far as net.core.rmem_max allows)', async () => {
  const { a, b } = await connectedPair();
  const connection = a.iceTransports[0].connection as unknown as {
    nominated: { protocol: { transport: { socket: import('node:dgram').Socket } } };
  };
  const rmemMax = Number(readFileSync('/proc/sys/net/core/rmem_max', 'utf8'));
  // Linux reports twice what was set (its bookkeeping): at least the size asked for, within the cap.
  expect(connection.nominated.protocol.transport.socket.getRecvBufferSize()).toBeGreaterThanOrEqual(
    Math.min(ICE_RECEIVE_BUFFER_BYTES, rmemMax),
  );
  await Promise.all([a.close(), b.close()]);
});

it('consent lapses only for a pair that received nothing since the last consent period began', async () => {
  const { a, b, fromA, toA } = await connectedPair();
  const ice = a.iceTransports[0].connection as unknown as Consent;
  // The peer still talks (its data arrives), but no consent answer came for 30 s: werift's expiry.
  const arrived = new Promise((resolve) => fromA.onMessage.subscribe(resolve));
  toA.send(Buffer.from('still here'));
  await arrived;
  ice.consentFresh = false;
  ice.setState('failed');
  expect(ice.state).toBe('connected');
  // And this side still sends.
  const heard = new Promise((resolve) => toA.onMessage.subscribe(resolve));
  fromA.send(Buffer.from('and so am I'));
  await expect(heard).resolves.toBeDefined();
  // Nothing received since a new period began (the second expiry in the same turn, after the
  // first took whatever came meanwhile): consent lapses as RFC 7675 says.
  for (const _ of [1, 2]) {
    ice.consentFresh = false;
    ice.setState('failed');
  }
  expect(ice.state).toBe('failed');
  await Promise.all([a.close(), b.close()]);
});
