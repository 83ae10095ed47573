/**
 * A raw publisher speaking LiveKit's v0 signaling over werift: a WebSocket and one peer
 * connection, nothing else. Cheap enough to run dozens at once, and able to send what no SDK
 * sends (sections it never announced). Its token should deny canSubscribe: it sets up no
 * subscriber connection.
 */
import { WebSocket } from 'ws';
import {
  AddTrackRequest,
  LeaveRequest,
  LeaveRequest_Action,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  TrackSource,
  TrackType,
  TrickleRequest,
} from '@livekit/protocol';
import { MediaStream, MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket, type RTCRtpTransceiver } from 'werift';
import { until } from './until';

export interface RawSection {
  /** The msid's track id, which the server matches with an AddTrackRequest's cid. */
  cid: string;
  kind: 'audio' | 'video';
  /** Whether an AddTrackRequest announces it before the offer. */
  announced: boolean;
}

export async function v0Publisher(opts: { url: string; token: string; identity: string; sections: RawSection[] }) {
  const ws = new WebSocket(`${opts.url}/rtc?access_token=${opts.token}`);
  const messages: SignalResponse[] = [];
  const send = (message: SignalRequest['message']) => ws.send(new SignalRequest({ message }).toBinary());
  const pc = new RTCPeerConnection({ iceUseIpv6: false, iceAdditionalHostAddresses: ['127.0.0.1'] });
  ws.on('message', (data) => {
    const res = SignalResponse.fromBinary(new Uint8Array(data as Buffer));
    messages.push(res);
    if (res.message.case === 'answer') void pc.setRemoteDescription({ type: 'answer', sdp: res.message.value.sdp });
    if (res.message.case === 'trickle' && res.message.value.target === SignalTarget.PUBLISHER) {
      const init = JSON.parse(res.message.value.candidateInit);
      if (init.candidate) void pc.addIceCandidate(init);
    }
  });
  ws.on('error', () => undefined);
  await until(() => messages.find((m) => m.message.case === 'join'), `${opts.identity}'s join response`, 10_000);

  const announced = opts.sections.filter((s) => s.announced);
  for (const s of announced)
    send({
      case: 'addTrack',
      value: new AddTrackRequest({
        cid: s.cid,
        name: s.cid,
        type: s.kind === 'audio' ? TrackType.AUDIO : TrackType.VIDEO,
        source: s.kind === 'audio' ? TrackSource.MICROPHONE : TrackSource.CAMERA,
        ...(s.kind === 'video' ? { width: 64, height: 48 } : {}),
      }),
    });
  await until(
    () => messages.filter((m) => m.message.case === 'trackPublished').length === announced.length || undefined,
    `${opts.identity}'s tracks published`,
    10_000,
  );

  const transceivers = new Map<string, RTCRtpTransceiver>();
  const keyFrameRequests = new Map<string, number>();
  for (const s of opts.sections) {
    const transceiver = pc.addTransceiver(new MediaStreamTrack({ kind: s.kind }), {
      direction: 'sendonly',
      streams: [new MediaStream({ id: opts.identity })],
    });
    (transceiver.sender as { trackId: string }).trackId = s.cid;
    transceivers.set(s.cid, transceiver);
    transceiver.sender.onPictureLossIndication.subscribe(() =>
      keyFrameRequests.set(s.cid, (keyFrameRequests.get(s.cid) ?? 0) + 1),
    );
  }
  pc.onIceCandidate.subscribe(
    (c) =>
      c &&
      send({
        case: 'trickle',
        value: new TrickleRequest({ candidateInit: JSON.stringify(c.toJSON()), target: SignalTarget.PUBLISHER }),
      }),
  );
  await pc.setLocalDescription(await pc.createOffer());
  send({ case: 'offer', value: new SessionDescription({ type: 'offer', sdp: pc.localDescription!.sdp, id: 1 }) });
  await until(() => (pc.connectionState === 'connected' ? true : undefined), `${opts.identity} connected`, 30_000);

  const timers: NodeJS.Timeout[] = [];
  return {
    messages,
    /** Key frame requests (PLI) the server sent for the section with this cid. */
    keyFrameRequests: (cid: string) => keyFrameRequests.get(cid) ?? 0,
    /** Sends an Opus frame of silence every 20 ms in the section with this cid, as a browser would. */
    sendSilence(cid: string) {
      let sequenceNumber = 0;
      const transceiver = transceivers.get(cid)!;
      timers.push(
        setInterval(() => {
          const header = new RtpHeader({ sequenceNumber: sequenceNumber++ & 0xffff, timestamp: sequenceNumber * 960 });
          void transceiver.sender
            .sendRtp(new RtpPacket(header, Buffer.from([0xf8, 0xff, 0xfe])))
            .catch(() => undefined);
        }, 20),
      );
    },
    /** Leaves as a client does (a LeaveRequest, then closing), so others see it go at once. */
    async leave() {
      for (const timer of timers) clearInterval(timer);
      if (ws.readyState === WebSocket.OPEN)
        send({
          case: 'leave',
          value: new LeaveRequest({ canReconnect: false, action: LeaveRequest_Action.DISCONNECT }),
        });
      ws.close();
      await pc.close();
    },
  };
}
