/**
 * The one interface Convene uses to reach the media layer. Plain JSON-safe data in and out
 * (the SDK's protobuf objects carry bigint fields that JSON.stringify rejects).
 */
export interface MediaCredentials {
  url: string;
  apiKey: string;
  apiSecret: string;
}

interface MediaRoom {
  name: string;
  sid: string;
  numParticipants: number;
  metadata: string;
  createdAt: Date | null;
}

interface MediaTrack {
  sid: string;
  type: 'AUDIO' | 'VIDEO' | 'DATA';
  source: string;
  muted: boolean;
}

export interface MediaParticipant {
  identity: string;
  sid: string;
  name: string;
  metadata: string;
  joinedAt: Date | null;
  tracks: MediaTrack[];
  /** Attributes this server set on them (a raised hand, a spotlight). */
  attributes: Record<string, string>;
}

export type PublishSource = 'camera' | 'microphone' | 'screen_share' | 'screen_share_audio';

export interface ParticipantGrants {
  canPublish: boolean;
  canSubscribe: boolean;
  canPublishData: boolean;
  canPublishSources?: PublishSource[];
}

interface ParticipantTokenRequest {
  identity: string;
  name: string;
  roomName: string;
  ttlSeconds: number;
  /** JSON string; broadcast to every participant, so never private. */
  metadata: string;
  grants: ParticipantGrants;
}

interface VerifiedParticipantToken {
  identity: string;
  roomName: string;
  metadata: string;
  expiresAt: Date;
}

export interface MediaWebhookEvent {
  id: string;
  event: string;
  createdAt: Date | null;
  room?: { name: string; sid: string };
  participant?: { identity: string; sid: string; joinedAt: Date | null };
  /** fileStartedAt: when the egress's file begins (its time 0), as the media layer reports it on the end. */
  egress?: { egressId: string; roomName: string; status: string; error: string; fileStartedAt: Date | null };
  ingress?: { ingressId: string; roomName: string; status: string };
}

/** Where egress uploads a file in object storage (LiveKit's S3Upload): one type for storage and media. */
export interface S3Upload {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKey?: string;
  secret?: string;
  forcePathStyle: boolean;
}

interface EgressTarget {
  /** A file written by the media layer's egress: a path on storage it shares, or an S3 upload. */
  file?: {
    filepath: string;
    s3?: S3Upload;
  };
  /** RTMP(S) destinations, stream keys included. */
  streamUrls?: string[];
}

interface MediaIngress {
  ingressId: string;
  url: string;
  streamKey: string;
}

export interface MediaLayer {
  readonly url: string;
  deleteRoom(name: string): Promise<void>;
  listRooms(names?: string[]): Promise<MediaRoom[]>;
  listParticipants(room: string): Promise<MediaParticipant[]>;
  /** Whether `identity` is in `room` now, hidden participants (agents, recorders) included. */
  isInRoom(room: string, identity: string): Promise<boolean>;
  removeParticipant(room: string, identity: string): Promise<void>;
  updateParticipant(
    room: string,
    identity: string,
    /** attributes: merged into the participant's; an empty value deletes one (LiveKit's rule). */
    update: { metadata?: string; grants?: ParticipantGrants; attributes?: Record<string, string> },
  ): Promise<void>;
  /** Mutes every unmuted audio track of everyone but `exceptIdentities`; returns how many. */
  muteAllAudio(room: string, exceptIdentities: ReadonlySet<string>): Promise<number>;
  /** Mutes one participant's unmuted tracks from a source (a host's per-person mute); returns how many. */
  muteTracks(room: string, identity: string, source: 'MICROPHONE' | 'CAMERA'): Promise<number>;
  moveParticipant(room: string, identity: string, destinationRoom: string): Promise<void>;
  sendData(room: string, payload: unknown, opts: { topic: string; destinationIdentities?: string[] }): Promise<void>;
  /** Room-composite egress: a recording (file) or a live stream (RTMP). */
  startRoomCompositeEgress(
    room: string,
    target: EgressTarget,
    opts?: {
      layout?: string;
      audioOnly?: boolean /** An EncodingOptionsPreset name, e.g. H264_720P_30. */;
      encodingPreset?: string;
    },
  ): Promise<{ egressId: string; status: string }>;
  /**
   * Participant egress: one participant's camera and microphone (or screen share and its audio)
   * to a file, as a composite of their tracks alone (LiveKit's StartParticipantEgress).
   */
  startParticipantEgress(
    room: string,
    identity: string,
    target: { file: NonNullable<EgressTarget['file']> },
    opts?: { screenShare?: boolean; encodingPreset?: string },
  ): Promise<{ egressId: string; status: string }>;
  /** Track egress: one track as it is published, to a file (an Opus microphone: Ogg) (StartTrackEgress). */
  startTrackEgress(
    room: string,
    trackSid: string,
    target: { file: NonNullable<EgressTarget['file']> },
  ): Promise<{ egressId: string; status: string }>;
  stopEgress(egressId: string): Promise<void>;
  createIngress(request: {
    inputType: 'RTMP' | 'WHIP';
    name: string;
    roomName: string;
    participantIdentity: string;
    participantName: string;
    enableTranscoding: boolean;
  }): Promise<MediaIngress>;
  deleteIngress(ingressId: string): Promise<void>;
  /** Dispatches an agent (e.g. live captions) into a room. */
  createAgentDispatch(room: string, agentName: string, metadata: string): Promise<{ dispatchId: string }>;
  deleteAgentDispatch(dispatchId: string, room: string): Promise<void>;
  mintParticipantToken(request: ParticipantTokenRequest): Promise<string>;
  verifyParticipantToken(token: string): Promise<VerifiedParticipantToken>;
  receiveWebhook(rawBody: string, authorization: string | null): Promise<MediaWebhookEvent>;
}

/** The media layer failed or refused a call: the API answers 502 MEDIA_LAYER_UNAVAILABLE. */
export class MediaLayerError extends Error {
  override name = 'MediaLayerError';
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The media layer answered that the room, participant, egress or dispatch is not there. */
export function isMediaNotFound(err: unknown): boolean {
  return err instanceof MediaLayerError && (err.status === 404 || err.code === 'not_found');
}

/** A media-layer webhook whose signature does not verify. */
export class MediaAuthError extends Error {
  override name = 'MediaAuthError';
}
