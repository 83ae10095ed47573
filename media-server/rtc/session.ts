/**
 * One participant's signaling session (LiveKit's signal protocol over a WebSocket: protobuf
 * SignalRequest in, SignalResponse out) and its peer connections. v0 (`/rtc`) has two: the
 * publisher, where the client offers its tracks and data channels, and the subscriber, where this
 * server offers the room's tracks. v1 (`/rtc/v1`) has one, and the client always offers: its first
 * offer comes inside the join request, and when this server has tracks to send it asks the client
 * for more receive sections (MediaSectionsRequirement) and fills them in its answer, as LiveKit
 * does. RTP is forwarded as received — no transcoding, so end-to-end-encrypted frames pass untouched.
 *
 * This file reads the signal messages and runs the session's life (join, move, leave); its parts
 * are negotiation.ts (offers and answers, per protocol version), publications.ts (the tracks the
 * client publishes), subscriptions.ts (the tracks it receives) and data-relay.ts (its data packets).
 */
import type { WebSocket } from 'ws';
import {
  RTCPeerConnection,
  useAudioLevelIndication,
  useDependencyDescriptor,
  useSdesMid,
  useSdesRTPStreamId,
} from 'werift';
import { routeLayersBySection } from './rid-routing';
import {
  type ConnectionQualityInfo,
  ConnectionQualityUpdate,
  DisconnectReason,
  type JoinRequest,
  LeaveRequest,
  LeaveRequest_Action,
  MuteTrackRequest,
  ParticipantUpdate,
  Pong,
  RoomMovedResponse,
  RoomUpdate,
  type Room as ProtoRoom,
  SignalRequest,
  SignalResponse,
  SignalTarget,
  SpeakersChanged,
  type SpeakerInfo,
  TrackUnpublishedResponse,
  TrickleRequest,
  type ParticipantInfo,
  ParticipantInfo_State,
} from '@livekit/protocol';
import { type DevParticipant, type DevRoom, type DevTrack, type ParticipantLink } from './room-state';
import type { Registry } from './registry';
import { iceOptions } from './ice';
import { DataRelay } from './data-relay';
import { Publications } from './publications';
import { Subscriptions } from './subscriptions';
import { Negotiation } from './negotiation';
import { updateOwnMetadata } from './metadata-update';
import { joinResponse } from './join-response';
import { CODECS } from '../sfu/codecs';
import { IntervalLog, SESSION_LIMITS, TokenBucket } from './limits';

/**
 * How long a client told to leave (or leaving) has to close its side before this server closes the
 * connection. livekit-client closes it as soon as it reads the leave; on a loaded 2-core machine,
 * three pages took over a second to.
 */
const LEAVE_GRACE_MS = 5000;

/** The longest participant updates are held for a client applying a description (heldUpdates). */
const UPDATE_HOLD_MS = 2000;

// The mid and rid extensions route RTP to its track when the SDP lists no SSRCs (simulcast offers).
// The audio level extension (RFC 6464) says who is speaking without decoding any audio.
const HEADER_EXTENSIONS = {
  audio: [useSdesMid(), useAudioLevelIndication()],
  video: [useSdesMid(), useSdesRTPStreamId(), useDependencyDescriptor()],
};

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

export class SignalSession implements ParticipantLink {
  private readonly publisher: RTCPeerConnection;
  private readonly subscriber: RTCPeerConnection;
  private readonly data: DataRelay;
  private readonly publications: Publications;
  private readonly subscriptions: Subscriptions;
  private readonly negotiation: Negotiation;
  private readonly signals = new TokenBucket(SESSION_LIMITS.signalMessagesPerSecond, SESSION_LIMITS.signalBurst);
  /** Refused add-track requests and failed signal requests, by reason: a line a second at most. */
  private readonly refusals: IntervalLog;
  private closed = false;
  /** Its peer connections and signaling connection closed (after `closed`, a grace later at most). */
  private connectionClosed = false;
  private graceTimer?: NodeJS.Timeout;
  /** v1 (one peer connection): the subscriber is the publisher. */
  private readonly single: boolean;
  /**
   * Participant updates held while the client applies a description that gives it the tracks of
   * someone who has just left: told of the departure first, livekit-client then gets a track of a
   * participant no longer there (an error in the page, the track left unbound). Released once the
   * client has applied it (Negotiation's `applied`), UPDATE_HOLD_MS at most; an update coming
   * meanwhile waits behind the held ones, so the client reads them all in order.
   */
  private heldUpdates?: { updates: ParticipantInfo[][]; timer: NodeJS.Timeout };

  constructor(
    private readonly ws: WebSocket,
    private room: DevRoom,
    readonly participant: DevParticipant,
    private readonly ctx: SessionContext,
    /** v1's join request (the client's first offer inside); absent on v0. */
    private readonly joinRequest?: JoinRequest,
  ) {
    this.single = joinRequest !== undefined;
    this.refusals = new IntervalLog(
      ctx.log,
      () => `${participant.identity}@${this.room.name}: refused signal requests`,
    );
    const config = {
      codecs: CODECS,
      headerExtensions: HEADER_EXTENSIONS,
      ...iceOptions(),
      // One transport from the first section on, as LiveKit's clients bundle everything. werift's
      // default (max-compat) gave each section added before the client's first answer a transport
      // of its own, gathered with the next offer: its candidates, trickled before that offer went
      // out, named a section the client did not have yet ("Error processing ICE candidate").
      bundlePolicy: 'max-bundle' as const,
    };
    this.publisher = new RTCPeerConnection(config);
    routeLayersBySection(this.publisher);
    this.subscriber = this.single ? this.publisher : new RTCPeerConnection(config);
    this.publisher.onIceCandidate.subscribe((c) => c && this.trickle(c.toJSON(), SignalTarget.PUBLISHER));
    if (!this.single)
      this.subscriber.onIceCandidate.subscribe((c) => c && this.trickle(c.toJSON(), SignalTarget.SUBSCRIBER));
    this.publisher.ontrack = (ev) => this.publications.onMedia(ev.track, ev.transceiver);
    this.subscriptions = new Subscriptions(participant, this.subscriber, this.single, {
      room: () => this.room,
      ended: () => this.closed,
      stats: ctx.stats,
      log: ctx.log,
      negotiate: () => this.negotiation.negotiateSubscriber(),
    });
    this.publications = new Publications(participant, {
      room: () => this.room,
      registry: ctx.registry,
      stats: ctx.stats,
      log: ctx.log,
      send: (message) => this.send(message),
      refusals: this.refusals,
      announced: () => this.negotiation.trackAnnounced(),
    });
    this.negotiation = new Negotiation(participant, this.publisher, this.subscriber, this.single, {
      publications: this.publications,
      subscriptions: this.subscriptions,
      send: (message) => this.send(message),
      refuse: (reason) => this.refuse(reason),
      ended: () => this.closed,
      applied: () => this.releaseUpdates(),
      log: ctx.log,
    });
    this.data = new DataRelay(participant, this.publisher, {
      room: () => this.room,
      ended: () => this.closed,
      log: ctx.log,
    });
    ws.on('message', (data, isBinary) => {
      if (this.closed || !this.spendSignal()) return;
      if (!isBinary) return;
      let req: SignalRequest;
      try {
        req = SignalRequest.fromBinary(new Uint8Array(data as Buffer));
      } catch {
        return;
      }
      this.onRequest(req).catch((err) =>
        this.refusals.count(`${req.message.case}: ${(err as Error).message.slice(0, 200)}`),
      );
    });
    ws.on('close', () => this.end(DisconnectReason.CLIENT_INITIATED, 'now'));
  }

  start() {
    this.send({ case: 'join', value: joinResponse(this.room, this.participant) });
    this.ctx.registry.join(this.room, this.participant);
    const offer = this.joinRequest?.publisherOffer;
    // Subscriptions first: on v1 their transceivers then take the receive sections of the join's
    // offer, whose answer asks for any more it needs — no request goes out before it (one asked
    // for here cost the joining client a renegotiation of its own while it connects).
    if (offer) this.negotiation.awaitJoinOffer();
    this.ctx.registry.subscribeAll(this.room, this.participant);
    // What the join request carries counts as the signal messages it stands for: the same budget.
    for (const request of this.joinRequest?.addTrackRequests ?? []) {
      if (!this.spendSignal()) return;
      this.publications.add(request);
    }
    if (offer)
      this.negotiation
        .onPublisherOffer(offer)
        .catch((err) => this.ctx.log(`join offer of ${this.participant.identity}: ${(err as Error).message}`));
  }

  /** One signal message's share of the budget; a connection over it is closed with the reason. */
  private spendSignal() {
    if (this.signals.take(1)) return true;
    this.refuse(
      `more than ${SESSION_LIMITS.signalMessagesPerSecond} signal messages per second (burst ${SESSION_LIMITS.signalBurst})`,
    );
    return false;
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
        return this.negotiation.onPublisherOffer(m.value);
      case 'answer':
        return this.negotiation.onSubscriberAnswer(m.value);
      case 'trickle': {
        const pc = m.value.target === SignalTarget.SUBSCRIBER ? this.subscriber : this.publisher;
        if (!m.value.candidateInit) return;
        if (m.value.candidateInit.length > SESSION_LIMITS.candidateBytes)
          throw new Error(`an ICE candidate over ${SESSION_LIMITS.candidateBytes} bytes`);
        const init = JSON.parse(m.value.candidateInit);
        if (init.candidate) await pc.addIceCandidate(init);
        return;
      }
      case 'addTrack':
        return this.publications.add(m.value);
      case 'mute':
        return this.publications.mute(m.value.sid, m.value.muted);
      case 'subscription':
        for (const sid of m.value.trackSids) {
          if (!m.value.subscribe) this.unsubscribe(sid);
          else {
            const found = this.room.findTrack(sid);
            if (found) this.subscribe(found.publisher, found.track);
          }
        }
        return;
      case 'updateMetadata': {
        const response = updateOwnMetadata(this.participant, this.room, m.value, (why) =>
          this.refusals.count(`updateMetadata: ${why}`),
        );
        if (response) this.send({ case: 'requestResponse', value: response });
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
        // The client closes its peer connection itself, then its signaling connection.
        return this.end(DisconnectReason.CLIENT_INITIATED, 'after the client');
      default:
        return; // track settings, layers, sync state: nothing to do without simulcast or resumption
    }
  }

  /** RTP packets that arrived in a section no published track claims (dropped). */
  get unannouncedRtp() {
    return this.publications.unannouncedRtp;
  }

  /** Data packets dropped over budget, in all. */
  get dataPacketsDropped() {
    return this.data.dropped;
  }

  /** Data packets this participant missed because it did not keep up (its channel's queue was full). */
  get dataPacketsMissed() {
    return this.data.missed;
  }

  /** Data waiting to go out to this participant (queued in its SCTP association). */
  get dataWaitingBytes() {
    return this.data.waitingBytes();
  }

  /** Data packets refused: no canPublishData grant, or a transcription from a participant not an agent. */
  get dataPacketsRefused() {
    return this.data.refused;
  }

  sendData(packet: Uint8Array, reliable: boolean) {
    this.data.send(packet, reliable);
  }

  sendUpdate(participants: ParticipantInfo[]) {
    const departed = (p: ParticipantInfo) => p.state === ParticipantInfo_State.DISCONNECTED;
    if (!this.heldUpdates && participants.some((p) => departed(p) && this.negotiation.applying(p.sid)))
      this.heldUpdates = { updates: [], timer: setTimeout(() => this.releaseUpdates(), UPDATE_HOLD_MS).unref() };
    if (this.heldUpdates) this.heldUpdates.updates.push(participants);
    else this.sendUpdateNow(participants);
  }

  private sendUpdateNow(participants: ParticipantInfo[]) {
    this.send({ case: 'update', value: new ParticipantUpdate({ participants }) });
  }

  private releaseUpdates() {
    const held = this.heldUpdates;
    if (!held) return;
    clearTimeout(held.timer);
    this.heldUpdates = undefined;
    for (const participants of held.updates) this.sendUpdateNow(participants);
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
    this.publications.mute(trackSid, muted);
  }

  subscribe(publisher: DevParticipant, track: DevTrack) {
    this.subscriptions.add(publisher, track);
  }

  unsubscribe(trackSid: string) {
    this.subscriptions.remove(trackSid);
  }

  sendTrackUnpublished(trackSid: string) {
    this.send({ case: 'trackUnpublished', value: new TrackUnpublishedResponse({ trackSid }) });
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

  /**
   * Ends the session from the server's side, telling the client why. Its peer connection is closed
   * once the client has closed its side (livekit-client does on the leave), or LEAVE_GRACE_MS later:
   * closed at once, its SCTP abort could reach the browser before the leave, whose data channels then
   * failed ("DataChannel error … closed unexpectedly" in every page when a meeting ended).
   */
  close(reason: DisconnectReason) {
    this.send({
      case: 'leave',
      value: new LeaveRequest({ canReconnect: false, reason, action: LeaveRequest_Action.DISCONNECT }),
    });
    this.end(reason, 'after the client');
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
    // 1008: policy violation; a close reason is at most 123 bytes. No grace for a broken limit.
    this.ws.close(1008, reason.slice(0, 123));
    this.end(DisconnectReason.SIGNAL_CLOSE, 'now');
  }

  /**
   * Takes the participant out of the room at once; its connection closes now, or once the client
   * has closed its signaling connection (LEAVE_GRACE_MS at most).
   */
  private end(reason: DisconnectReason, closeConnection: 'now' | 'after the client') {
    if (!this.closed) {
      this.closed = true;
      this.subscriptions.stopAll();
      this.participant.link = undefined;
      this.ctx.registry.leave(this.room, this.participant, reason);
      for (const track of this.participant.tracks.values()) track.media?.stop();
    }
    if (closeConnection === 'now') return this.closeConnection();
    if (this.graceTimer || this.connectionClosed) return;
    this.graceTimer = setTimeout(() => this.closeConnection(), LEAVE_GRACE_MS);
    this.graceTimer.unref();
  }

  private closeConnection() {
    clearTimeout(this.graceTimer);
    if (this.connectionClosed) return;
    this.connectionClosed = true;
    void this.publisher.close().catch(() => undefined);
    if (!this.single) void this.subscriber.close().catch(() => undefined);
    // 1000: a normal closure, which livekit-client does not report as an error (no code reads as one).
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(1000);
  }
}
