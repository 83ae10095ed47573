/**
 * One participant's signaling session (LiveKit's v0 signal protocol over a WebSocket: protobuf
 * SignalRequest in, SignalResponse out) and its two peer connections: the publisher, where the
 * browser offers its tracks and data channels, and the subscriber, where this server offers the
 * room's tracks. RTP is forwarded as received — no transcoding, so end-to-end-encrypted frames
 * pass untouched.
 */
import type { WebSocket } from 'ws';
import {
  MediaStream,
  MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  useFIR,
  useNACK,
  usePLI,
  useAudioLevelIndication,
  useSdesMid,
  useSdesRTPStreamId,
  type RTCDataChannel,
  type RTCRtpTransceiver,
} from 'werift';
import {
  ClientConfiguration,
  DataPacket,
  DisconnectReason,
  Encryption_Type,
  JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  MuteTrackRequest,
  ParticipantUpdate,
  Pong,
  RoomMovedResponse,
  RoomUpdate,
  type Room as ProtoRoom,
  ServerInfo,
  ServerInfo_Edition,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  SpeakersChanged,
  type SpeakerInfo,
  TrackPublishedResponse,
  TrackSource,
  TrackType,
  TrickleRequest,
  type AddTrackRequest,
  type ParticipantInfo,
} from '@livekit/protocol';
import {
  newSid,
  trackInfo,
  type DevParticipant,
  type DevRoom,
  type DevTrack,
  type ParticipantLink,
} from './room-state';
import type { Registry } from './registry';

const SERVER_VERSION = '1.9.0';
const PROTOCOL_VERSION = 16;

// One codec per kind: what the browser publishes is what every subscriber can decode.
const CODECS = {
  audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
  video: [
    new RTCRtpCodecParameters({
      mimeType: 'video/VP8',
      clockRate: 90000,
      rtcpFeedback: [useNACK(), usePLI(), useFIR()],
    }),
  ],
};

// The mid and rid extensions route RTP to its track when the SDP lists no SSRCs (simulcast offers).
// The audio level extension (RFC 6464) says who is speaking without decoding any audio.
const HEADER_EXTENSIONS = {
  audio: [useSdesMid(), useAudioLevelIndication()],
  video: [useSdesMid(), useSdesRTPStreamId()],
};
const AUDIO_LEVEL_URI = 'urn:ietf:params:rtp-hdrext:ssrc-audio-level';
/** dBov below which a packet counts as speech (0 is loudest, 127 silence). */
const SPEECH_DBOV = 50;

/** Counters the benchmark reads: packets in and out, and time spent handing packets on. */
interface ForwardingStats {
  rtpIn: number;
  rtpOut: number;
  forwardMs: number;
}

interface SessionContext {
  registry: Registry;
  log: (msg: string) => void;
  stats: ForwardingStats;
  /** A token for the same participant in another room (sent with a move). */
  tokenFor(participant: DevParticipant, room: string): Promise<string>;
}

/**
 * Keeps one layer of a simulcast offer: the middle one of three (a 720p camera's 360p layer),
 * else the highest. This server does not switch layers, so every subscriber gets that one: good
 * enough to see someone, light enough for one Node process to forward to a handful of people.
 */
function oneLayerOnly(sdp: string) {
  const sections = sdp.split(/\r\n(?=m=)/);
  return sections
    .map((section) => {
      const simulcast = /\r\na=simulcast:send ([^\r\n]+)/.exec(section);
      if (!simulcast) return section;
      const rids = simulcast[1].split(';').map((r) => r.split(',')[0].replace(/^~/, ''));
      const keep = rids.length >= 3 ? rids[1] : rids[rids.length - 1];
      return section
        .split('\r\n')
        .filter((line) => !(line.startsWith('a=rid:') && !line.startsWith(`a=rid:${keep} `)))
        .map((line) => (line.startsWith('a=simulcast:send ') ? `a=simulcast:send ${keep}` : line))
        .join('\r\n');
    })
    .join('\r\n');
}

/** mid → the browser's track id (LiveKit's "cid"), from each m-section's a=msid line. */
function msidsByMid(sdp: string) {
  const map = new Map<string, string>();
  for (const section of sdp.split(/\r\nm=/).slice(1)) {
    const mid = /\r\na=mid:(\S+)/.exec(section)?.[1];
    const msid = /\r\na=msid:\S+ (\S+)/.exec(section)?.[1];
    if (mid && msid) map.set(mid, msid);
  }
  return map;
}

interface Subscription {
  transceiver: RTCRtpTransceiver;
  stop: () => void;
}

export class SignalSession implements ParticipantLink {
  private readonly publisher: RTCPeerConnection;
  private readonly subscriber: RTCPeerConnection;
  private readonly channels = new Map<string, RTCDataChannel>();
  private readonly pendingData: { packet: Uint8Array; reliable: boolean }[] = [];
  private readonly subscriptions = new Map<string, Subscription>();
  private cids = new Map<string, string>();
  private offerChain = Promise.resolve();
  private subscriberOfferId = 0;
  private subscriberBusy = false;
  private subscriberDirty = false;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private room: DevRoom,
    readonly participant: DevParticipant,
    private readonly ctx: SessionContext,
  ) {
    const config = {
      codecs: CODECS,
      headerExtensions: HEADER_EXTENSIONS,
      iceAdditionalHostAddresses: ['127.0.0.1'],
      iceUseIpv6: false,
    };
    this.publisher = new RTCPeerConnection(config);
    this.subscriber = new RTCPeerConnection(config);
    this.publisher.onIceCandidate.subscribe((c) => c && this.trickle(c.toJSON(), SignalTarget.PUBLISHER));
    this.subscriber.onIceCandidate.subscribe((c) => c && this.trickle(c.toJSON(), SignalTarget.SUBSCRIBER));
    this.publisher.ontrack = (ev) => this.onMedia(ev.track, ev.transceiver);
    this.publisher.onDataChannel.subscribe((dc) => this.onDataChannel(dc));
    this.subscriber.connectionStateChange.subscribe((state) => {
      if (state === 'connected') for (const sid of this.subscriptions.keys()) this.keyFrameFor(sid);
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      let req: SignalRequest;
      try {
        req = SignalRequest.fromBinary(new Uint8Array(data as Buffer));
      } catch {
        return;
      }
      this.onRequest(req).catch((err) =>
        ctx.log(`signal ${req.message.case} from ${participant.identity}: ${(err as Error).message}`),
      );
    });
    ws.on('close', () => this.end(DisconnectReason.CLIENT_INITIATED, false));
  }

  start() {
    const others = this.room.visible(this.participant).map((p) => p.info());
    this.send({
      case: 'join',
      value: new JoinResponse({
        room: this.room.info(),
        participant: this.participant.info(),
        otherParticipants: others,
        serverVersion: SERVER_VERSION,
        serverRegion: 'local',
        serverInfo: new ServerInfo({
          edition: ServerInfo_Edition.Standard,
          version: SERVER_VERSION,
          protocol: PROTOCOL_VERSION,
          region: 'local',
          nodeId: 'convene-dev-media',
        }),
        iceServers: [],
        subscriberPrimary: false,
        pingTimeout: 15,
        pingInterval: 5,
        clientConfiguration: new ClientConfiguration({}),
      }),
    });
    this.ctx.registry.join(this.room, this.participant);
    this.ctx.registry.subscribeAll(this.room, this.participant);
  }

  private send(message: SignalResponse['message']) {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(new SignalResponse({ message }).toBinary());
  }

  private trickle(candidate: object, target: SignalTarget) {
    this.send({ case: 'trickle', value: new TrickleRequest({ candidateInit: JSON.stringify(candidate), target }) });
  }

  private async onRequest(req: SignalRequest) {
    const m = req.message;
    switch (m.case) {
      case 'offer':
        return this.onPublisherOffer(m.value);
      case 'answer':
        return this.onSubscriberAnswer(m.value);
      case 'trickle': {
        const pc = m.value.target === SignalTarget.SUBSCRIBER ? this.subscriber : this.publisher;
        if (!m.value.candidateInit) return;
        const init = JSON.parse(m.value.candidateInit);
        if (init.candidate) await pc.addIceCandidate(init);
        return;
      }
      case 'addTrack':
        return this.onAddTrack(m.value);
      case 'mute':
        return this.onMute(m.value.sid, m.value.muted);
      case 'subscription':
        for (const sid of m.value.trackSids) {
          if (!m.value.subscribe) this.unsubscribe(sid);
          else {
            const found = this.findTrack(sid);
            if (found) this.subscribe(found.publisher, found.track);
          }
        }
        return;
      case 'updateMetadata':
        if (!this.participant.permission.canUpdateMetadata) return;
        if (m.value.name) this.participant.name = m.value.name;
        if (m.value.metadata) this.participant.metadata = m.value.metadata;
        Object.assign(this.participant.attributes, m.value.attributes);
        this.participant.touch();
        this.room.broadcastUpdate(this.participant);
        return;
      case 'ping':
        return this.send({ case: 'pong', value: BigInt(Date.now()) });
      case 'pingReq':
        return this.send({
          case: 'pongResp',
          value: new Pong({ lastPingTimestamp: m.value.timestamp, timestamp: BigInt(Date.now()) }),
        });
      case 'leave':
        return this.end(DisconnectReason.CLIENT_INITIATED, false);
      default:
        return; // track settings, layers, sync state: nothing to do without simulcast or resumption
    }
  }

  private onPublisherOffer(sd: SessionDescription) {
    this.offerChain = this.offerChain.then(async () => {
      const sdp = oneLayerOnly(sd.sdp);
      this.cids = msidsByMid(sdp);
      await this.publisher.setRemoteDescription({ type: 'offer', sdp });
      await this.publisher.setLocalDescription(await this.publisher.createAnswer());
      this.send({
        case: 'answer',
        value: new SessionDescription({ type: 'answer', sdp: this.publisher.localDescription!.sdp, id: sd.id }),
      });
    });
    return this.offerChain;
  }

  private onAddTrack(req: AddTrackRequest) {
    const p = this.participant;
    const allowed =
      p.permission.canPublish &&
      (!p.permission.canPublishSources.length || p.permission.canPublishSources.includes(req.source));
    if (!allowed) {
      this.ctx.log(`${p.identity} may not publish ${TrackSource[req.source]}`);
      return;
    }
    const video = req.type === TrackType.VIDEO;
    const track: DevTrack = {
      sid: newSid('TR'),
      cid: req.cid,
      type: req.type,
      source: req.source,
      name: req.name,
      muted: req.muted,
      width: req.width,
      height: req.height,
      mimeType: video ? 'video/VP8' : 'audio/opus',
      encryption: req.encryption ?? Encryption_Type.NONE,
      stream: req.stream,
    };
    p.tracks.set(track.sid, track);
    this.send({ case: 'trackPublished', value: new TrackPublishedResponse({ cid: req.cid, track: trackInfo(track) }) });
    p.touch();
    this.room.broadcastUpdate(p);
  }

  private onMedia(media: MediaStreamTrack, transceiver: RTCRtpTransceiver) {
    const cid = transceiver.mid ? this.cids.get(transceiver.mid) : undefined;
    const tracks = [...this.participant.tracks.values()];
    const kind = media.kind === 'audio' ? TrackType.AUDIO : TrackType.VIDEO;
    const track = tracks.find((t) => t.cid === cid && !t.media) ?? tracks.find((t) => !t.media && t.type === kind);
    if (!track) {
      this.ctx.log(`media without a published track from ${this.participant.identity} (mid ${transceiver.mid})`);
      return;
    }
    track.media = media;
    media.onReceiveRtp.subscribe((_rtp, extensions) => {
      this.ctx.stats.rtpIn++;
      const audio = extensions?.[AUDIO_LEVEL_URI] as { level: number } | undefined;
      if (audio && audio.level < SPEECH_DBOV) track.speech = { at: Date.now(), level: Math.pow(10, -audio.level / 20) };
    });
    let lastKeyFrameRequest = 0;
    track.requestKeyFrame = () => {
      // At most one request per 500 ms: several subscribers joining at once need one key frame.
      const ssrc = media.ssrc ?? media.header?.ssrc; // a simulcast layer's SSRC is learnt from its packets
      if (ssrc === undefined || Date.now() - lastKeyFrameRequest < 500) return;
      lastKeyFrameRequest = Date.now();
      transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
    };
    this.ctx.registry.publish(this.room, this.participant, track);
  }

  private onMute(trackSid: string, muted: boolean) {
    const track = this.participant.tracks.get(trackSid);
    if (!track || track.muted === muted) return;
    track.muted = muted;
    this.participant.touch();
    this.room.broadcastUpdate(this.participant);
  }

  private onDataChannel(dc: RTCDataChannel) {
    this.channels.set(dc.label, dc);
    dc.stateChange.subscribe((state) => {
      if (state === 'open') this.flushData();
    });
    dc.onMessage.subscribe((data) => {
      if (typeof data === 'string') return;
      this.relay(new Uint8Array(data), dc.label !== '_lossy');
    });
    if (dc.readyState === 'open') this.flushData();
  }

  /** A data packet from this participant: stamped with its identity and sent to the room or its destinations. */
  private relay(bytes: Uint8Array, reliable: boolean) {
    if (!this.participant.permission.canPublishData) return;
    let packet: DataPacket;
    try {
      packet = DataPacket.fromBinary(bytes);
    } catch {
      return;
    }
    packet.participantIdentity = this.participant.identity;
    packet.participantSid = this.participant.sid;
    let destinations = packet.destinationIdentities;
    if (packet.value.case === 'user') {
      packet.value.value.participantIdentity = this.participant.identity;
      packet.value.value.participantSid = this.participant.sid;
      if (!destinations.length) destinations = packet.value.value.destinationIdentities;
    }
    const out = packet.toBinary();
    for (const other of this.room.connected(this.participant)) {
      if (destinations.length && !destinations.includes(other.identity)) continue;
      other.link!.sendData(out, reliable);
    }
  }

  sendData(packet: Uint8Array, reliable: boolean) {
    const dc = this.channels.get(reliable ? '_reliable' : '_lossy') ?? this.channels.get('_reliable');
    if (dc?.readyState === 'open') dc.send(Buffer.from(packet));
    else if (this.pendingData.length < 500) this.pendingData.push({ packet, reliable });
  }

  private flushData() {
    const queued = this.pendingData.splice(0);
    for (const { packet, reliable } of queued) this.sendData(packet, reliable);
  }

  sendUpdate(participants: ParticipantInfo[]) {
    this.send({ case: 'update', value: new ParticipantUpdate({ participants }) });
  }

  sendRoomUpdate(room: ProtoRoom) {
    this.send({ case: 'roomUpdate', value: new RoomUpdate({ room }) });
  }

  sendSpeakers(speakers: SpeakerInfo[]) {
    this.send({ case: 'speakersChanged', value: new SpeakersChanged({ speakers }) });
  }

  requestMute(trackSid: string, muted: boolean) {
    this.send({ case: 'mute', value: new MuteTrackRequest({ sid: trackSid, muted }) });
    this.onMute(trackSid, muted);
  }

  subscribe(publisher: DevParticipant, track: DevTrack) {
    if (this.closed || this.subscriptions.has(track.sid) || !track.media) return;
    const local = new MediaStreamTrack({ kind: track.type === TrackType.AUDIO ? 'audio' : 'video' });
    const transceiver = this.subscriber.addTransceiver(local, {
      direction: 'sendonly',
      streams: [new MediaStream({ id: `${publisher.sid}|${track.sid}` })],
    });
    (transceiver.sender as { trackId: string }).trackId = track.sid; // the browser reads our track sid from the msid
    const stats = this.ctx.stats;
    const forward = track.media.onReceiveRtp.subscribe((rtp) => {
      const started = performance.now();
      local.writeRtp(rtp);
      stats.forwardMs += performance.now() - started;
      stats.rtpOut++;
    });
    const pli = transceiver.sender.onPictureLossIndication.subscribe(() => track.requestKeyFrame?.());
    this.subscriptions.set(track.sid, {
      transceiver,
      stop: () => {
        forward.unSubscribe();
        pli.unSubscribe();
      },
    });
    this.negotiateSubscriber();
  }

  unsubscribe(trackSid: string) {
    const sub = this.subscriptions.get(trackSid);
    if (!sub) return;
    this.subscriptions.delete(trackSid);
    sub.stop();
    if (this.closed) return;
    try {
      this.subscriber.removeTrack(sub.transceiver.sender);
    } catch {
      // already gone with the connection
    }
    this.negotiateSubscriber();
  }

  private keyFrameFor(trackSid: string) {
    this.findTrack(trackSid)?.track.requestKeyFrame?.();
  }

  private findTrack(trackSid: string) {
    for (const publisher of this.room.participants.values()) {
      const track = publisher.tracks.get(trackSid);
      if (track) return { publisher, track };
    }
    return undefined;
  }

  /** Offers the subscriber connection again; one offer in flight at a time. */
  private negotiateSubscriber() {
    if (this.closed) return;
    if (this.subscriberBusy) {
      this.subscriberDirty = true;
      return;
    }
    this.subscriberBusy = true;
    this.subscriberDirty = false;
    void (async () => {
      try {
        const offer = await this.subscriber.createOffer();
        await this.subscriber.setLocalDescription(offer);
        const midToTrackId: Record<string, string> = {};
        for (const [sid, sub] of this.subscriptions) if (sub.transceiver.mid) midToTrackId[sub.transceiver.mid] = sid;
        this.send({
          case: 'offer',
          value: new SessionDescription({
            type: 'offer',
            sdp: this.subscriber.localDescription!.sdp,
            id: ++this.subscriberOfferId,
            midToTrackId,
          }),
        });
      } catch (err) {
        this.subscriberBusy = false;
        this.ctx.log(`subscriber offer for ${this.participant.identity}: ${(err as Error).message}`);
      }
    })();
  }

  private async onSubscriberAnswer(sd: SessionDescription) {
    try {
      await this.subscriber.setRemoteDescription({ type: 'answer', sdp: sd.sdp });
      for (const sid of this.subscriptions.keys()) this.keyFrameFor(sid);
    } finally {
      this.subscriberBusy = false;
      if (this.subscriberDirty) this.negotiateSubscriber();
    }
  }

  /** Moves this participant to another room without a new connection (LiveKit's RoomMoved). */
  async moveTo(room: DevRoom) {
    const from = this.room;
    const token = await this.ctx.tokenFor(this.participant, room.name);
    this.room = room;
    this.ctx.registry.move(from, this.participant, room);
    this.send({
      case: 'roomMoved',
      value: new RoomMovedResponse({
        room: room.info(),
        token,
        participant: this.participant.info(),
        otherParticipants: room.visible(this.participant).map((p) => p.info()),
      }),
    });
  }

  /** Ends the session from the server's side, telling the client why. */
  close(reason: DisconnectReason) {
    this.send({
      case: 'leave',
      value: new LeaveRequest({ canReconnect: false, reason, action: LeaveRequest_Action.DISCONNECT }),
    });
    this.end(reason, true);
  }

  private end(reason: DisconnectReason, closeSocket: boolean) {
    if (this.closed) return;
    this.closed = true;
    for (const sub of this.subscriptions.values()) sub.stop();
    this.subscriptions.clear();
    this.participant.link = undefined;
    this.ctx.registry.leave(this.room, this.participant, reason);
    for (const track of this.participant.tracks.values()) track.media?.stop();
    void this.publisher.close().catch(() => undefined);
    void this.subscriber.close().catch(() => undefined);
    if (closeSocket) setTimeout(() => this.ws.close(), 50).unref();
  }
}
