/**
 * One participant's signaling session (LiveKit's signal protocol over a WebSocket: protobuf
 * SignalRequest in, SignalResponse out) and its peer connections. v0 (`/rtc`) has two: the
 * publisher, where the client offers its tracks and data channels, and the subscriber, where this
 * server offers the room's tracks. v1 (`/rtc/v1`) has one, and the client always offers: its first
 * offer comes inside the join request, and when this server has tracks to send it asks the client
 * for more receive sections (MediaSectionsRequirement) and fills them in its answer, as LiveKit
 * does. RTP is forwarded as received — no transcoding, so end-to-end-encrypted frames pass untouched.
 */
import type { WebSocket } from 'ws';
import {
  MediaStream,
  MediaStreamTrack,
  PictureLossIndication,
  RtcpPayloadSpecificFeedback,
  RTCPeerConnection,
  useAudioLevelIndication,
  useSdesMid,
  useSdesRTPStreamId,
  type RTCDataChannel,
  type RTCRtpTransceiver,
} from 'werift';
import {
  ClientConfiguration,
  type ConnectionQualityInfo,
  ConnectionQualityUpdate,
  DataPacket,
  DisconnectReason,
  Encryption_Type,
  type JoinRequest,
  JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  MediaSectionsRequirement,
  MuteTrackRequest,
  ParticipantUpdate,
  Pong,
  RoomMovedResponse,
  RequestResponse,
  RequestResponse_Reason,
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
  TrackUnpublishedResponse,
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
  mayPublish,
} from './room-state';
import type { Registry } from './registry';
import { answerAsDtlsServer, handOverEarlyHandshakes } from './answer';
import { iceOptions } from './ice';
import { continueOnNewTrack, forwardTrack } from '../sfu/down-track';
import { CODECS } from '../sfu/codecs';
import { ArrivalMeter } from '../sfu/quality';

const SERVER_VERSION = '1.9.0';
const PROTOCOL_VERSION = 16;

// The mid and rid extensions route RTP to its track when the SDP lists no SSRCs (simulcast offers).
// The audio level extension (RFC 6464) says who is speaking without decoding any audio.
const HEADER_EXTENSIONS = {
  audio: [useSdesMid(), useAudioLevelIndication()],
  video: [useSdesMid(), useSdesRTPStreamId()],
};
const AUDIO_LEVEL_URI = 'urn:ietf:params:rtp-hdrext:ssrc-audio-level';
/** RTCP payload-specific feedback format of a Full Intra Request (RFC 5104). */
const FIR_FORMAT = 4;
/** dBov below which a packet counts as speech (0 is loudest, 127 silence). */
const SPEECH_DBOV = 50;

/**
 * What one connection may ask of this process, so a hostile or broken client costs only its own
 * connection: published tracks (LiveKit's clients publish a handful), media sections in one offer,
 * and signal messages (a token bucket: a join's burst of ICE candidates fits, a flood does not).
 */
export const SESSION_LIMITS = {
  tracksPerParticipant: 32,
  // v1: a client's receive sections are reused as people come and go, so they number about the
  // most tracks it received at once; far from what froze the process (1,000).
  mediaSectionsPerOffer: 128,
  signalBurst: 200,
  signalMessagesPerSecond: 100,
  // Data packets one participant may relay (LiveKit-like, generous for chat and reactions): a
  // flood of large packets once broke a bystander browser's data channel.
  dataPacketsPerSecond: 100,
  dataPacketBurst: 200,
  dataBytesPerSecond: 1024 * 1024,
  dataByteBurst: 2 * 1024 * 1024,
};

/** Refills `perSecond` up to `burst`; `take` spends `cost` if that much is there. */
class TokenBucket {
  private tokens: number;
  private refilledAt = performance.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Whether `cost` fits now (spending it), after refilling for the time since the last call. */
  take(cost: number) {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}

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

/**
 * Each m-section of an offer by mid: the browser's track id (LiveKit's "cid", from its a=msid
 * line) and whether it sends (a section the client stopped sending in is inactive or recvonly,
 * or rejected with port 0).
 */
function sectionsByMid(sdp: string) {
  const map = new Map<string, { cid?: string; sending: boolean }>();
  for (const section of sdp.split(/\r\nm=/).slice(1)) {
    const mid = /\r\na=mid:(\S+)/.exec(section)?.[1];
    if (!mid) continue;
    const direction = /\r\na=(sendrecv|sendonly|recvonly|inactive)\b/.exec(section)?.[1] ?? 'sendrecv';
    const rejected = /^\S+ 0 /.test(section);
    map.set(mid, {
      cid: /\r\na=msid:\S+ (\S+)/.exec(section)?.[1],
      sending: !rejected && (direction === 'sendrecv' || direction === 'sendonly'),
    });
  }
  return map;
}

type MediaKind = 'audio' | 'video';

interface Subscription {
  kind: MediaKind;
  /** v1: none until the client's next offer brings a receive section for it. */
  transceiver?: RTCRtpTransceiver;
  stop: () => void;
}

export class SignalSession implements ParticipantLink {
  private readonly publisher: RTCPeerConnection;
  private readonly subscriber: RTCPeerConnection;
  private readonly channels = new Map<string, RTCDataChannel>();
  private readonly pendingData: { packet: Uint8Array; reliable: boolean }[] = [];
  private readonly dataPackets = new TokenBucket(SESSION_LIMITS.dataPacketsPerSecond, SESSION_LIMITS.dataPacketBurst);
  private readonly dataBytes = new TokenBucket(SESSION_LIMITS.dataBytesPerSecond, SESSION_LIMITS.dataByteBurst);
  /** Data packets dropped over budget, in all. */
  dataPacketsDropped = 0;
  /** Data packets refused for want of the canPublishData grant. */
  dataPacketsRefused = 0;
  /** RTP packets that arrived in a section no published track claims (dropped). */
  unannouncedRtp = 0;
  /** Data packets dropped over budget since the last log line, by reason (logged at most once a second). */
  private dataDropped = new Map<string, number>();
  private dataDropLog?: NodeJS.Timeout;
  private readonly subscriptions = new Map<string, Subscription>();
  /** Videos bound since the last key frame request for them (sent once the transport is up). */
  private readonly needKeyFrame = new Set<string>();
  private cids = new Map<string, string>();
  private offerChain = Promise.resolve();
  private subscriberOfferId = 0;
  private subscriberBusy = false;
  private subscriberDirty = false;
  /** v1: receive sections asked of the client since its last offer was answered, per kind. */
  private sectionsAsked = { audio: 0, video: 0 };
  private sectionsRequestQueued = false;
  /** v1: the join request's offer is still to be read (its answer asks for receive sections). */
  private joinOfferComing = false;
  /**
   * v1: receive sections whose track went away, not yet answered as inactive. A section is given
   * another track only once an answer has turned it inactive: the browser fires `track` again
   * (livekit-client then binds the new track sid, reusing the receiver's MediaStreamTrack, which
   * it only disables on unpublish) when a section starts sending anew, not when its msid changes.
   */
  private readonly draining = new Set<RTCRtpTransceiver>();
  /** v1: announced tracks already asked for once more (askAgainForMissing). */
  private readonly askedAgain = new Set<string>();
  /** The subscriber's DTLS transports whose key frame requests are read (watchKeyFrameRequests). */
  private readonly watchedTransports = new WeakSet<object>();
  private closed = false;
  /** v1 (one peer connection): the subscriber is the publisher. */
  private readonly single: boolean;

  constructor(
    private readonly ws: WebSocket,
    private room: DevRoom,
    readonly participant: DevParticipant,
    private readonly ctx: SessionContext,
    /** v1's join request (the client's first offer inside); absent on v0. */
    private readonly joinRequest?: JoinRequest,
  ) {
    this.single = joinRequest !== undefined;
    const config = {
      codecs: CODECS,
      headerExtensions: HEADER_EXTENSIONS,
      ...iceOptions(),
    };
    this.publisher = new RTCPeerConnection(config);
    this.subscriber = this.single ? this.publisher : new RTCPeerConnection(config);
    this.publisher.onIceCandidate.subscribe((c) => c && this.trickle(c.toJSON(), SignalTarget.PUBLISHER));
    if (!this.single)
      this.subscriber.onIceCandidate.subscribe((c) => c && this.trickle(c.toJSON(), SignalTarget.SUBSCRIBER));
    this.publisher.ontrack = (ev) => this.onMedia(ev.track, ev.transceiver);
    this.publisher.onDataChannel.subscribe((dc) => this.onDataChannel(dc));
    this.subscriber.connectionStateChange.subscribe((state) => {
      if (state === 'connected') this.keyFramesForAll();
    });
    let tokens = SESSION_LIMITS.signalBurst;
    let refilledAt = performance.now();
    ws.on('message', (data, isBinary) => {
      if (this.closed) return;
      const now = performance.now();
      tokens = Math.min(
        SESSION_LIMITS.signalBurst,
        tokens + ((now - refilledAt) / 1000) * SESSION_LIMITS.signalMessagesPerSecond,
      );
      refilledAt = now;
      if (--tokens < 0)
        return this.refuse(
          `more than ${SESSION_LIMITS.signalMessagesPerSecond} signal messages per second (burst ${SESSION_LIMITS.signalBurst})`,
        );
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
    const offer = this.joinRequest?.publisherOffer;
    // Subscriptions first: on v1 their transceivers then take the receive sections of the join's
    // offer, whose answer asks for any more it needs — no request goes out before it (one asked
    // for here cost the joining client a renegotiation of its own while it connects).
    this.joinOfferComing = offer !== undefined;
    this.ctx.registry.subscribeAll(this.room, this.participant);
    for (const request of this.joinRequest?.addTrackRequests ?? []) this.onAddTrack(request);
    if (offer)
      this.onPublisherOffer(offer).catch((err) =>
        this.ctx.log(`join offer of ${this.participant.identity}: ${(err as Error).message}`),
      );
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
      case 'updateMetadata': {
        // Clients that number their requests wait for the answer (the Rust SDK: 5 s, then an error).
        const answer = (reason: RequestResponse_Reason, message = '') =>
          m.value.requestId &&
          this.send({
            case: 'requestResponse',
            value: new RequestResponse({
              requestId: m.value.requestId,
              reason,
              message,
              request: { case: 'updateMetadata', value: m.value },
            }),
          });
        if (!this.participant.permission.canUpdateMetadata)
          return answer(RequestResponse_Reason.NOT_ALLOWED, 'no canUpdateOwnMetadata grant');
        if (m.value.name) this.participant.name = m.value.name;
        if (m.value.metadata) this.participant.metadata = m.value.metadata;
        Object.assign(this.participant.attributes, m.value.attributes);
        this.participant.touch();
        this.room.broadcastUpdate(this.participant);
        answer(RequestResponse_Reason.OK);
        return;
      }
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
    this.joinOfferComing = false;
    const sections = sd.sdp.split('\nm=').length - 1;
    if (sections > SESSION_LIMITS.mediaSectionsPerOffer) {
      this.refuse(`an offer of ${sections} media sections (at most ${SESSION_LIMITS.mediaSectionsPerOffer})`);
      return Promise.resolve();
    }
    // Announced before this offer came: each should have its section in it.
    const announced = [...this.participant.tracks.values()].filter((t) => !t.media);
    const answered = this.offerChain.then(async () => {
      const sdp = oneLayerOnly(sd.sdp);
      const sections = sectionsByMid(sdp);
      this.cids = new Map([...sections].flatMap(([mid, { cid }]) => (cid ? [[mid, cid] as const] : [])));
      await this.publisher.setRemoteDescription({ type: 'offer', sdp });
      this.unpublishStopped(sections);
      if (this.single) this.bindWaitingSubscriptions();
      // Sections freed by now go out inactive in this answer: free for another track after it.
      const drained = [...this.draining];
      await answerAsDtlsServer(this.publisher);
      if (this.single) this.watchKeyFrameRequests();
      this.send({
        case: 'answer',
        value: new SessionDescription({
          type: 'answer',
          sdp: this.publisher.localDescription!.sdp,
          id: sd.id,
          midToTrackId: this.single ? this.midToTrackId() : {},
        }),
      });
      if (!this.single) return;
      for (const t of drained) this.draining.delete(t);
      this.keyFramesForAll();
      this.sectionsAsked = { audio: 0, video: 0 };
      this.askForSections(false);
      this.askAgainForMissing(announced);
    });
    // A failed offer is reported to the caller; the next one still runs.
    this.offerChain = answered.catch(() => undefined);
    return answered;
  }

  /**
   * v1: a track announced before an offer that lacks its section is asked for once more, a second
   * later if still missing. The Rust SDK can lose its own renegotiation: a track added while it is
   * offering for one of our MediaSectionsRequirements is never offered, and never heard.
   */
  private askAgainForMissing(announced: DevTrack[]) {
    const missing = announced.filter((t) => !t.media && !this.askedAgain.has(t.sid));
    if (!missing.length) return;
    for (const track of missing) this.askedAgain.add(track.sid);
    setTimeout(() => {
      if (missing.some((t) => !t.media && this.participant.tracks.get(t.sid) === t)) this.negotiateSubscriber();
    }, 1000).unref();
  }

  /**
   * The client unpublishes a track by no longer sending in its section (livekit-client removes
   * the sender and offers again): the track leaves the room, as on LiveKit.
   */
  private unpublishStopped(sections: ReturnType<typeof sectionsByMid>) {
    for (const track of [...this.participant.tracks.values()]) {
      if (!track.media || track.mid === undefined || sections.get(track.mid)?.sending) continue;
      this.ctx.registry.unpublish(this.room, this.participant, track);
    }
  }

  private onAddTrack(req: AddTrackRequest) {
    const p = this.participant;
    // Refused as LiveKit does: a RequestResponse naming the request, which the SDKs surface as a failed publish.
    const refuse = (reason: RequestResponse_Reason, message: string) => {
      this.ctx.log(`${p.identity}: ${message}`);
      this.send({
        case: 'requestResponse',
        value: new RequestResponse({ reason, message, request: { case: 'addTrack', value: req } }),
      });
    };
    if (!mayPublish(p.permission, req.source))
      return refuse(RequestResponse_Reason.NOT_ALLOWED, `may not publish ${TrackSource[req.source]}`);
    if (req.type !== TrackType.AUDIO && req.type !== TrackType.VIDEO)
      return refuse(RequestResponse_Reason.UNSUPPORTED_TYPE, `cannot publish a track of type ${req.type}`);
    if (p.tracks.size >= SESSION_LIMITS.tracksPerParticipant)
      return refuse(
        RequestResponse_Reason.LIMIT_EXCEEDED,
        `at most ${SESSION_LIMITS.tracksPerParticipant} published tracks per participant`,
      );
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
    // By kind only for a track whose own section is not in the offer (a browser may put another
    // id in the msid than the one it announced, as LiveKit allows): an extra, unannounced section
    // never takes a track announced for another.
    const offered = new Set(this.cids.values());
    const track =
      tracks.find((t) => t.cid === cid && !t.media) ??
      tracks.find((t) => !t.media && t.type === kind && !offered.has(t.cid));
    if (!track) {
      this.ctx.log(`media without a published track from ${this.participant.identity} (mid ${transceiver.mid})`);
      media.onReceiveRtp.subscribe(() => this.unannouncedRtp++);
      return;
    }
    track.media = media;
    track.mid = transceiver.mid ?? undefined;
    const arrivals = new ArrivalMeter(media.kind === 'audio' ? 48000 : 90000);
    track.arrivals = arrivals;
    media.onReceiveRtp.subscribe((rtp, extensions) => {
      this.ctx.stats.rtpIn++;
      arrivals.record(rtp.header.sequenceNumber, rtp.header.timestamp);
      const audio = extensions?.[AUDIO_LEVEL_URI] as { level: number } | undefined;
      if (audio && audio.level < SPEECH_DBOV) track.speech = { at: Date.now(), level: Math.pow(10, -audio.level / 20) };
    });
    let lastKeyFrameRequest = 0;
    let trailingRequest = false;
    // Asked for before the first packet told the SSRC: sent when it comes.
    let keyFrameOnFirstPacket = false;
    media.onReceiveRtp.subscribe(() => {
      if (!keyFrameOnFirstPacket) return;
      keyFrameOnFirstPacket = false;
      track.requestKeyFrame?.();
    });
    track.requestKeyFrame = () => {
      // At most one request per 200 ms: several subscribers joining at once need one key frame. A
      // request inside the window is sent at its end rather than dropped: the subscriber asking
      // may be the one the earlier key frame came too soon for.
      const ssrc = media.ssrc ?? media.header?.ssrc; // a simulcast layer's SSRC is learnt from its packets
      if (ssrc === undefined) {
        keyFrameOnFirstPacket = true;
        return;
      }
      const wait = lastKeyFrameRequest + 200 - Date.now();
      if (wait > 0) {
        if (trailingRequest) return;
        trailingRequest = true;
        setTimeout(() => {
          trailingRequest = false;
          track.requestKeyFrame?.();
        }, wait);
        return;
      }
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
    if (!this.participant.permission.canPublishData) {
      this.dataPacketsRefused++;
      return;
    }
    // Checked before parsing so a flood costs little; the sender stays connected, its excess is dropped.
    if (!this.dataPackets.take(1)) return this.dropData(`over ${SESSION_LIMITS.dataPacketsPerSecond} packets/s`);
    if (!this.dataBytes.take(bytes.length)) return this.dropData(`over ${SESSION_LIMITS.dataBytesPerSecond} bytes/s`);
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

  private dropData(reason: string) {
    this.dataPacketsDropped++;
    this.dataDropped.set(reason, (this.dataDropped.get(reason) ?? 0) + 1);
    this.dataDropLog ??= setTimeout(() => {
      const counts = [...this.dataDropped].map(([why, n]) => `${n} ${why}`).join(', ');
      this.ctx.log(`${this.participant.identity}@${this.room.name}: dropped data packets (${counts})`);
      this.dataDropped = new Map();
      this.dataDropLog = undefined;
    }, 1000);
    this.dataDropLog.unref();
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

  sendConnectionQuality(updates: ConnectionQualityInfo[]) {
    this.send({ case: 'connectionQuality', value: new ConnectionQualityUpdate({ updates }) });
  }

  requestMute(trackSid: string, muted: boolean) {
    this.send({ case: 'mute', value: new MuteTrackRequest({ sid: trackSid, muted }) });
    this.onMute(trackSid, muted);
  }

  sendTrackUnpublished(trackSid: string) {
    this.send({ case: 'trackUnpublished', value: new TrackUnpublishedResponse({ trackSid }) });
  }

  subscribe(publisher: DevParticipant, track: DevTrack) {
    // Every path (joining, a publication, a client's SubscriptionRequest) ends here: the grant decides.
    if (!this.participant.permission.canSubscribe) return;
    if (this.closed || this.subscriptions.has(track.sid) || !track.media) return;
    const kind = track.type === TrackType.AUDIO ? 'audio' : 'video';
    if (this.single) {
      this.subscriptions.set(track.sid, { kind, stop: () => undefined });
      this.negotiateSubscriber();
      return;
    }
    const transceiver = this.subscriber.addTransceiver(new MediaStreamTrack({ kind }), {
      direction: 'sendonly',
      streams: [new MediaStream({ id: `${publisher.sid}|${track.sid}` })],
    });
    (transceiver.sender as { trackId: string }).trackId = track.sid; // the browser reads our track sid from the msid
    this.attach(track, transceiver);
    this.negotiateSubscriber();
  }

  /** Starts forwarding a track on a transceiver that sends it. */
  private attach(track: DevTrack, transceiver: RTCRtpTransceiver) {
    if (track.type === TrackType.VIDEO) this.needKeyFrame.add(track.sid);
    this.subscriptions.set(track.sid, {
      kind: transceiver.kind === 'audio' ? 'audio' : 'video',
      transceiver,
      stop: forwardTrack(track.media!, transceiver, this.ctx.stats),
    });
  }

  /**
   * Passes a subscriber's key frame requests (PLI, FIR) to the publisher of the video they name by
   * SSRC. Read off the transport, not werift's per-sender events: werift routes feedback by its
   * sender SSRC first, and a browser that also publishes may sign its feedback with an SSRC werift
   * receives on — the request then went to that receiver and was lost, and a subscriber whose first
   * key frame was missed stayed black.
   */
  private watchKeyFrameRequests() {
    for (const transport of this.subscriber.dtlsTransports) {
      if (this.watchedTransports.has(transport)) continue;
      this.watchedTransports.add(transport);
      transport.onRtcp.subscribe((rtcp) => {
        if (rtcp.type !== RtcpPayloadSpecificFeedback.type) return;
        const feedback = (rtcp as RtcpPayloadSpecificFeedback).feedback as {
          count: number;
          mediaSsrc: number;
          fir?: { ssrc: number }[];
        };
        const asked =
          feedback.count === PictureLossIndication.count
            ? [feedback.mediaSsrc]
            : feedback.count === FIR_FORMAT
              ? (feedback.fir ?? []).map((entry) => entry.ssrc)
              : [];
        for (const [sid, sub] of this.subscriptions)
          if (sub.kind === 'video' && sub.transceiver && asked.includes(sub.transceiver.sender.ssrc))
            this.findTrack(sid)?.track.requestKeyFrame?.();
      });
    }
  }

  /**
   * v1: gives each subscription still waiting a receive section of the client's current offer
   * that sends nothing (the client's own publications are its send sections). The track id goes
   * out in the answer's msid, as on v0.
   */
  private bindWaitingSubscriptions() {
    const taken = new Set([...this.subscriptions.values()].map((sub) => sub.transceiver));
    const free = this.freeSections(taken);
    for (const [sid, sub] of this.subscriptions) {
      if (sub.transceiver) continue;
      const found = this.findTrack(sid);
      if (!found?.track.media) {
        this.subscriptions.delete(sid);
        continue;
      }
      const index = free.findIndex((t) => t.kind === sub.kind);
      if (index < 0) continue;
      const [transceiver] = free.splice(index, 1);
      transceiver.sender.setStreams([new MediaStream({ id: `${found.publisher.sid}|${sid}` })]);
      (transceiver.sender as { trackId: string }).trackId = sid;
      transceiver.setDirection('sendonly');
      continueOnNewTrack(transceiver);
      this.attach(found.track, transceiver);
    }
  }

  /** v1: the client's receive sections that carry no track and may take one now. */
  private freeSections(taken: Set<RTCRtpTransceiver | undefined>) {
    return this.publisher
      .getTransceivers()
      .filter((t) => t.mid != null && t.offerDirection === 'sendonly' && !taken.has(t) && !this.draining.has(t));
  }

  unsubscribe(trackSid: string) {
    const sub = this.subscriptions.get(trackSid);
    if (!sub) return;
    this.subscriptions.delete(trackSid);
    sub.stop();
    if (this.closed || !sub.transceiver) return;
    if (this.single) {
      // The section goes inactive in the next answer, then takes the next track that needs one.
      sub.transceiver.setDirection('inactive');
      sub.transceiver.sender.setStreams([]);
      this.draining.add(sub.transceiver);
    } else {
      try {
        this.subscriber.removeTrack(sub.transceiver.sender);
      } catch {
        // already gone with the connection
      }
    }
    this.negotiateSubscriber();
  }

  /**
   * Asks the publishers of the videos newly bound to this participant for a key frame (LiveKit
   * does on each new subscription: it cannot decode before one), once its transport is up: RTP
   * sent before DTLS connects is dropped, and a key frame asked for too early spends the
   * publisher's request budget (one per 200 ms) on nothing.
   */
  private keyFramesForAll() {
    if (this.subscriber.connectionState !== 'connected') return;
    for (const sid of this.needKeyFrame) this.findTrack(sid)?.track.requestKeyFrame?.();
    this.needKeyFrame.clear();
  }

  private findTrack(trackSid: string) {
    for (const publisher of this.room.participants.values()) {
      const track = publisher.tracks.get(trackSid);
      if (track) return { publisher, track };
    }
    return undefined;
  }

  private midToTrackId() {
    const map: Record<string, string> = {};
    for (const [sid, sub] of this.subscriptions) if (sub.transceiver?.mid) map[sub.transceiver.mid] = sid;
    return map;
  }

  /**
   * v1: asks the client for as many new receive sections as subscriptions wait beyond the free
   * ones (LiveKit's MediaSectionsRequirement); the client adds them and offers again. forced: asks
   * even for none, so the client offers again (a section to fill or to turn inactive).
   */
  private askForSections(forced: boolean) {
    const waiting = { audio: 0, video: 0 };
    for (const sub of this.subscriptions.values()) if (!sub.transceiver) waiting[sub.kind]++;
    const taken = new Set([...this.subscriptions.values()].map((sub) => sub.transceiver));
    const free = { audio: 0, video: 0 };
    for (const t of this.freeSections(taken)) free[t.kind === 'audio' ? 'audio' : 'video']++;
    const numAudios = Math.max(0, waiting.audio - free.audio - this.sectionsAsked.audio);
    const numVideos = Math.max(0, waiting.video - free.video - this.sectionsAsked.video);
    // A free section (one just answered inactive) takes a waiting track only in the next offer.
    const fillable = Math.min(waiting.audio, free.audio) + Math.min(waiting.video, free.video) > 0;
    if (!forced && !fillable && numAudios + numVideos === 0) return;
    this.sectionsAsked.audio += numAudios;
    this.sectionsAsked.video += numVideos;
    this.send({ case: 'mediaSectionsRequirement', value: new MediaSectionsRequirement({ numAudios, numVideos }) });
  }

  /** Offers the subscriber connection again (v1: asks the client to); one offer in flight at a time. */
  private negotiateSubscriber() {
    if (this.closed) return;
    if (this.single) {
      // Once per burst of changes, after any offer being answered (whose answer may take them in).
      if (this.sectionsRequestQueued || this.joinOfferComing) return;
      this.sectionsRequestQueued = true;
      this.offerChain = this.offerChain.then(() => {
        this.sectionsRequestQueued = false;
        this.askForSections(true);
      });
      return;
    }
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
        handOverEarlyHandshakes(this.subscriber);
        this.watchKeyFrameRequests();
        const midToTrackId = this.midToTrackId();
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
      this.keyFramesForAll();
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

  /** Ends a connection that broke a limit, telling the client why (leave, then close code 1008 with the text). */
  private refuse(reason: string) {
    if (this.closed) return;
    this.ctx.log(`closing ${this.participant.identity}@${this.room.name}: ${reason}`);
    this.send({
      case: 'leave',
      value: new LeaveRequest({
        canReconnect: false,
        reason: DisconnectReason.SIGNAL_CLOSE,
        action: LeaveRequest_Action.DISCONNECT,
      }),
    });
    this.end(DisconnectReason.SIGNAL_CLOSE, false);
    // 1008: policy violation; a close reason is at most 123 bytes.
    this.ws.close(1008, reason.slice(0, 123));
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
    if (!this.single) void this.subscriber.close().catch(() => undefined);
    if (closeSocket) setTimeout(() => this.ws.close(), 50).unref();
  }
}
