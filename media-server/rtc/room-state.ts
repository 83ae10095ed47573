/**
 * Rooms, participants and published tracks, in memory, and the protobuf views of them that the
 * signaling channel, the Twirp API and the webhooks share.
 */
import { randomBytes } from 'node:crypto';
import {
  type ConnectionQualityInfo,
  Encryption_Type,
  ParticipantInfo,
  ParticipantInfo_Kind,
  ParticipantInfo_State,
  ParticipantPermission,
  Room,
  SimulcastCodecInfo,
  type SpeakerInfo,
  TrackInfo,
  TrackSource,
  TrackType,
} from '@livekit/protocol';
import type { MediaStreamTrack, RTCRtpCodecParameters } from 'werift';
import type { PublishPreference } from '../sfu/codecs';
import type { ArrivalMeter } from '../sfu/quality';

export const newSid = (prefix: 'RM' | 'PA' | 'TR' | 'EG' | 'IN' | 'AD' | 'EV') =>
  `${prefix}_${randomBytes(6).toString('hex')}`;

/**
 * What a participant may make everyone else receive with each update about it (LiveKit's
 * `limit.max_participant_name_length`, `max_metadata_size`, `max_attributes_size` defaults; a
 * track's name, cid and stream as a participant's name), and how often such updates go out: every
 * update carries the participant's whole track list, so a flood of changes (mute toggles) is
 * coalesced into the latest state once its burst is spent.
 */
export const PARTICIPANT_LIMITS = {
  nameBytes: 256,
  metadataBytes: 512 * 1024,
  /** Keys and values together. */
  attributesBytes: 64 * 1024,
  trackNameBytes: 256,
  updateBurst: 10,
  updatesPerSecond: 4,
};

/** The size of a participant's attributes as LiveKit counts it: every key and value. */
export const attributesBytes = (attributes: Record<string, string>) =>
  Object.entries(attributes).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);

export interface Permission {
  canPublish: boolean;
  canSubscribe: boolean;
  canPublishData: boolean;
  canUpdateMetadata: boolean;
  canPublishSources: TrackSource[];
  hidden: boolean;
}

/** Whether a permission lets its holder publish a track from this source (LiveKit's GetCanPublishSource). */
export const mayPublish = (permission: Permission, source: TrackSource) =>
  permission.canPublish && (!permission.canPublishSources.length || permission.canPublishSources.includes(source));

export interface DevTrack {
  sid: string;
  /** The client's id for it (the browser's MediaStreamTrack id). */
  cid: string;
  type: TrackType;
  source: TrackSource;
  name: string;
  muted: boolean;
  width: number;
  height: number;
  mimeType: string;
  encryption: Encryption_Type;
  stream: string;
  /**
   * The codecs its publisher's section was answered with (codecs.ts): the one it is sent in, with
   * its RTX or, for audio, RED around Opus. Undefined until the media arrives.
   */
  codecs?: RTCRtpCodecParameters[];
  /** What the publisher asked the track to be sent as (AddTrackRequest). */
  preference?: PublishPreference;
  /** Announced by its publisher, its media not arrived yet: no one else is told of it. */
  pending?: boolean;
  /** The received media, once it arrives (undefined for tracks of participants added by tests). */
  media?: MediaStreamTrack;
  /** The publisher's section it arrives in: the client unpublishes by turning it inactive. */
  mid?: string;
  /** Asks the publisher for a key frame (a new subscriber needs one to start decoding). */
  requestKeyFrame?: () => void;
  /** Audio only: when the publisher last sent a packet marked as speech, and how loud (0–1). */
  speech?: { at: number; level: number };
  /** Loss and jitter of the received media, for the publisher's connection quality. */
  arrivals?: ArrivalMeter;
}

/** What a connected participant's signaling session offers the room. */
export interface ParticipantLink {
  sendUpdate(participants: ParticipantInfo[]): void;
  sendSpeakers(speakers: SpeakerInfo[]): void;
  sendConnectionQuality(updates: ConnectionQualityInfo[]): void;
  sendRoomUpdate(room: Room): void;
  sendData(packet: Uint8Array, reliable: boolean): void;
  subscribe(publisher: DevParticipant, track: DevTrack): void;
  unsubscribe(trackSid: string): void;
  requestMute(trackSid: string, muted: boolean): void;
  /** Tells the client the server unpublished its track (its grant no longer allows it). */
  sendTrackUnpublished(trackSid: string): void;
  /** Ends the session with a LiveKit disconnect reason (sent to the client as a leave). */
  close(reason: number): void;
  moveTo(room: DevRoom): Promise<void>;
}

export class DevParticipant {
  readonly sid = newSid('PA');
  readonly joinedAt = Date.now();
  readonly tracks = new Map<string, DevTrack>();
  state = ParticipantInfo_State.JOINED;
  /** LiveKit's participant kind (an agent's token says it is one): only agents' transcriptions are relayed. */
  kind = ParticipantInfo_Kind.STANDARD;
  version = 1;
  link?: ParticipantLink;

  constructor(
    readonly identity: string,
    public name: string,
    public metadata: string,
    public attributes: Record<string, string>,
    public permission: Permission,
  ) {}

  touch() {
    this.version++;
  }

  info(): ParticipantInfo {
    return new ParticipantInfo({
      sid: this.sid,
      identity: this.identity,
      name: this.name,
      metadata: this.metadata,
      attributes: this.attributes,
      state: this.state,
      kind: this.kind,
      joinedAt: BigInt(Math.floor(this.joinedAt / 1000)),
      joinedAtMs: BigInt(this.joinedAt),
      version: this.version,
      isPublisher: this.tracks.size > 0,
      permission: new ParticipantPermission({
        canPublish: this.permission.canPublish,
        canSubscribe: this.permission.canSubscribe,
        canPublishData: this.permission.canPublishData,
        canUpdateMetadata: this.permission.canUpdateMetadata,
        canPublishSources: this.permission.canPublishSources,
        hidden: this.permission.hidden,
      }),
      // As on LiveKit, a track is listed once published (its media arrived): it then shows in the
      // codec it is sent in, which clients read when it first appears (the Rust SDK only then).
      tracks: [...this.tracks.values()].filter((t) => !t.pending).map(trackInfo),
    });
  }
}

export function trackInfo(t: DevTrack): TrackInfo {
  return new TrackInfo({
    sid: t.sid,
    type: t.type,
    source: t.source,
    name: t.name,
    muted: t.muted,
    width: t.width,
    height: t.height,
    mimeType: t.mimeType,
    // The codec it is sent in once known, else the one it was announced as (LiveKit's codecs list,
    // of which only the primary: this server asks for no backup codec).
    codecs:
      t.mimeType || t.preference?.codec
        ? [new SimulcastCodecInfo({ mimeType: t.mimeType || t.preference?.codec, cid: t.cid, mid: t.mid ?? '' })]
        : [],
    encryption: t.encryption,
    stream: t.stream,
  });
}

export class DevRoom {
  readonly sid = newSid('RM');
  readonly createdAt = Date.now();
  readonly participants = new Map<string, DevParticipant>();
  metadata = '';
  emptyTimeout = 300;
  departureTimeout = 20;
  maxParticipants = 0;
  /** Pending close after the last participant left. */
  closeTimer?: NodeJS.Timeout;
  /** A recording (file egress) is running: clients show it (LiveKit's activeRecording). */
  activeRecording = false;
  /** Who was speaking at the last speaker update (participant sid → level). */
  speakers = new Map<string, number>();
  /** Each participant's update budget (PARTICIPANT_LIMITS) and its coalesced update, if one waits. */
  private readonly updateBudgets = new Map<
    DevParticipant,
    { tokens: number; refilledAt: number; waiting?: NodeJS.Timeout }
  >();

  constructor(readonly name: string) {}

  /** Participants others may see (hidden ones, e.g. recorders, are left out). */
  visible(except?: DevParticipant) {
    return [...this.participants.values()].filter((p) => p !== except && !p.permission.hidden);
  }

  connected(except?: DevParticipant) {
    return [...this.participants.values()].filter((p) => p !== except && p.link);
  }

  /** A track of someone in this room (published or only announced) and who it is of, by track sid. */
  findTrack(trackSid: string) {
    for (const publisher of this.participants.values()) {
      const track = publisher.tracks.get(trackSid);
      if (track) return { publisher, track };
    }
    return undefined;
  }

  /**
   * Tells every connected participant (and the one changed, so it sees its own permission) —
   * at once while the participant's update budget lasts, then its latest state once a token is back.
   */
  broadcastUpdate(changed: DevParticipant) {
    const now = performance.now();
    let budget = this.updateBudgets.get(changed);
    if (!budget) {
      budget = { tokens: PARTICIPANT_LIMITS.updateBurst, refilledAt: now };
      this.updateBudgets.set(changed, budget);
    }
    if (budget.waiting) return; // the update on its way will carry this change too
    budget.tokens = Math.min(
      PARTICIPANT_LIMITS.updateBurst,
      budget.tokens + ((now - budget.refilledAt) / 1000) * PARTICIPANT_LIMITS.updatesPerSecond,
    );
    budget.refilledAt = now;
    if (budget.tokens >= 1) {
      budget.tokens--;
      this.sendUpdate(changed);
      return;
    }
    const wait = ((1 - budget.tokens) / PARTICIPANT_LIMITS.updatesPerSecond) * 1000;
    const waiting = budget;
    waiting.waiting = setTimeout(() => {
      waiting.waiting = undefined;
      // Gone or moved meanwhile: its leave said the rest.
      if (this.participants.get(changed.identity) !== changed) {
        this.updateBudgets.delete(changed);
        return;
      }
      this.broadcastUpdate(changed);
    }, wait);
    waiting.waiting.unref();
  }

  /** Forgets a participant's update budget (and a coalesced update still waiting) once it left. */
  forgetUpdates(participant: DevParticipant) {
    clearTimeout(this.updateBudgets.get(participant)?.waiting);
    this.updateBudgets.delete(participant);
  }

  private sendUpdate(changed: DevParticipant) {
    const info = changed.info();
    for (const p of this.connected()) {
      if (p === changed || !changed.permission.hidden) p.link!.sendUpdate([info]);
    }
  }

  info(): Room {
    return new Room({
      sid: this.sid,
      name: this.name,
      metadata: this.metadata,
      emptyTimeout: this.emptyTimeout,
      departureTimeout: this.departureTimeout,
      maxParticipants: this.maxParticipants,
      creationTime: BigInt(Math.floor(this.createdAt / 1000)),
      creationTimeMs: BigInt(this.createdAt),
      numParticipants: this.visible().length,
      numPublishers: this.visible().filter((p) => p.tracks.size > 0).length,
      activeRecording: this.activeRecording,
    });
  }

  setRecording(active: boolean) {
    if (this.activeRecording === active) return;
    this.activeRecording = active;
    const info = this.info();
    for (const p of this.connected()) p.link!.sendRoomUpdate(info);
  }
}
