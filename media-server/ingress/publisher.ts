/**
 * An ingress's participant in its room: it joins with the ingress's identity and name once media
 * arrives, its tracks are forwarded like anyone's (through the registry), and it leaves when the
 * stream ends. ingress_started and ingress_ended go out as LiveKit sends them.
 */
import {
  DisconnectReason,
  Encryption_Type,
  IngressInfo,
  IngressState,
  IngressState_Status,
  TrackSource,
  TrackType,
} from '@livekit/protocol';
import type { MediaStreamTrack } from 'werift';
import type { Registry } from '../rtc/registry';
import { DevParticipant, type DevRoom, type DevTrack, newSid } from '../rtc/room-state';
import { SESSION_LIMITS } from '../rtc/limits';
import type { WebhookSender } from '../webhooks/sender';

export interface IngressContext {
  registry: Registry;
  webhooks: WebhookSender;
  log: (msg: string) => void;
}

export class IngressPublisher {
  private room?: DevRoom;
  private readonly participant: DevParticipant;
  private ended = false;

  constructor(
    private readonly info: IngressInfo,
    private readonly ctx: IngressContext,
  ) {
    this.participant = new DevParticipant(
      info.participantIdentity || info.ingressId,
      info.participantName || info.name,
      info.participantMetadata,
      {},
      {
        canPublish: true,
        canSubscribe: false,
        canPublishData: false,
        canUpdateMetadata: false,
        canPublishSources: [],
        hidden: false,
      },
    );
  }

  /**
   * Joins the room (on the first track) and forwards this track to everyone in it; past signaling's
   * per-participant track limit a track is not published (WHIP refuses such offers before this).
   */
  addTrack(media: MediaStreamTrack, requestKeyFrame?: () => void) {
    if (this.ended || this.participant.tracks.size >= SESSION_LIMITS.tracksPerParticipant) return;
    const video = media.kind === 'video';
    const sid = newSid('TR');
    const track: DevTrack = {
      sid,
      cid: media.id ?? sid,
      type: video ? TrackType.VIDEO : TrackType.AUDIO,
      source: video ? TrackSource.CAMERA : TrackSource.MICROPHONE,
      name: video ? 'video' : 'audio',
      muted: false,
      width: 0,
      height: 0,
      mimeType: video ? 'video/VP8' : 'audio/opus',
      encryption: Encryption_Type.NONE,
      stream: 'ingress',
      media,
      requestKeyFrame,
    };
    this.participant.tracks.set(track.sid, track);
    const { registry } = this.ctx;
    if (!this.room) {
      this.room = registry.open(this.info.roomName);
      const existing = this.room.participants.get(this.participant.identity);
      if (existing) {
        existing.link?.close(DisconnectReason.DUPLICATE_IDENTITY);
        registry.leave(this.room, existing, DisconnectReason.DUPLICATE_IDENTITY);
      }
      registry.join(this.room, this.participant);
      this.setState(IngressState_Status.ENDPOINT_PUBLISHING);
      void this.ctx.webhooks.emit({ event: 'ingress_started', ingressInfo: this.info });
    } else {
      this.participant.touch();
      this.room.broadcastUpdate(this.participant);
    }
    registry.publish(this.room, this.participant, track);
  }

  /** The stream stopped: the participant leaves and the ingress waits for the next one. */
  end(error = '') {
    if (this.ended) return;
    this.ended = true;
    if (!this.room) return;
    this.ctx.registry.leave(this.room, this.participant, DisconnectReason.CLIENT_INITIATED);
    this.setState(error ? IngressState_Status.ENDPOINT_ERROR : IngressState_Status.ENDPOINT_INACTIVE, error);
    void this.ctx.webhooks.emit({ event: 'ingress_ended', ingressInfo: this.info });
  }

  private setState(status: IngressState_Status, error = '') {
    const now = BigInt(Date.now()) * 1_000_000n;
    const previous = this.info.state;
    this.info.state = new IngressState({
      status,
      error,
      roomId: this.room?.sid ?? '',
      startedAt: status === IngressState_Status.ENDPOINT_PUBLISHING ? now : (previous?.startedAt ?? 0n),
      endedAt: status === IngressState_Status.ENDPOINT_PUBLISHING ? 0n : now,
    });
  }
}
