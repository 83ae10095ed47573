/**
 * Rooms, participants and published tracks, in memory, and the protobuf views of them that the
 * signaling channel, the Twirp API and the webhooks share.
 */
import { randomBytes } from 'node:crypto';
import {
  type ConnectionQualityInfo,
  Encryption_Type,
  ParticipantInfo,
  ParticipantInfo_State,
  ParticipantPermission,
  Room,
  type SpeakerInfo,
  TrackInfo,
  TrackSource,
  TrackType,
} from '@livekit/protocol';
import type { MediaStreamTrack } from 'werift';
import type { ArrivalMeter } from '../sfu/quality';

export const newSid = (prefix: 'RM' | 'PA' | 'TR' | 'EG' | 'IN' | 'AD' | 'EV') =>
  `${prefix}_${randomBytes(6).toString('hex')}`;

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
      tracks: [...this.tracks.values()].map(trackInfo),
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

  constructor(readonly name: string) {}

  /** Participants others may see (hidden ones, e.g. recorders, are left out). */
  visible(except?: DevParticipant) {
    return [...this.participants.values()].filter((p) => p !== except && !p.permission.hidden);
  }

  connected(except?: DevParticipant) {
    return [...this.participants.values()].filter((p) => p !== except && p.link);
  }

  /** Tells every connected participant (and the one changed, so it sees its own permission). */
  broadcastUpdate(changed: DevParticipant) {
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
