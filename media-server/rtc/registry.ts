/**
 * The rooms of one development media server and the rules that move participants and tracks
 * between them: who is told, who subscribes to what, which webhook goes out.
 */
import {
  ConnectionQuality,
  ConnectionQualityInfo,
  DisconnectReason,
  ParticipantInfo_State,
  SpeakerInfo,
  TrackType,
} from '@livekit/protocol';
import { DevParticipant, DevRoom, mayPublish, trackInfo, type DevTrack } from './room-state';
import type { WebhookSender } from '../webhooks/sender';
import { rateConnection } from '../sfu/quality';

/** LiveKit's MOS-like score that goes with each rating (1–5). */
const SCORES: Record<ConnectionQuality, number> = {
  [ConnectionQuality.EXCELLENT]: 4.5,
  [ConnectionQuality.GOOD]: 3.5,
  [ConnectionQuality.POOR]: 2,
  [ConnectionQuality.LOST]: 1,
};

export function createRegistry(opts: { webhooks: WebhookSender; departureTimeoutMs: () => number }) {
  const rooms = new Map<string, DevRoom>();
  const { webhooks } = opts;

  function open(name: string): DevRoom {
    let room = rooms.get(name);
    if (!room) {
      room = new DevRoom(name);
      rooms.set(name, room);
      void webhooks.emit({ event: 'room_started', room: room.info() });
    }
    clearTimeout(room.closeTimer);
    room.closeTimer = undefined;
    return room;
  }

  /** Adds a participant: the others are told, and each side subscribes to what the other publishes. */
  function join(room: DevRoom, participant: DevParticipant, webhookAfter?: Promise<void>) {
    room.participants.set(participant.identity, participant);
    participant.state = ParticipantInfo_State.ACTIVE;
    participant.touch();
    room.broadcastUpdate(participant);
    void webhooks.emit(
      { event: 'participant_joined', room: room.info(), participant: participant.info() },
      webhookAfter,
    );
  }

  /** Wires subscriptions for a participant whose media transport is ready. */
  function subscribeAll(room: DevRoom, participant: DevParticipant) {
    if (!participant.link || !participant.permission.canSubscribe) return;
    for (const other of room.participants.values()) {
      if (other === participant) continue;
      for (const track of other.tracks.values()) if (track.media) participant.link.subscribe(other, track);
    }
  }

  function leave(room: DevRoom, participant: DevParticipant, reason: DisconnectReason) {
    if (room.participants.get(participant.identity) !== participant) return;
    room.participants.delete(participant.identity);
    room.forgetUpdates(participant);
    for (const track of participant.tracks.values()) {
      for (const other of room.connected()) other.link!.unsubscribe(track.sid);
    }
    participant.state = ParticipantInfo_State.DISCONNECTED;
    participant.touch();
    const info = participant.info();
    info.disconnectReason = reason;
    for (const other of room.connected()) if (!participant.permission.hidden) other.link!.sendUpdate([info]);
    void webhooks.emit({ event: 'participant_left', room: room.info(), participant: info });
    if (room.participants.size === 0 && rooms.get(room.name) === room) {
      room.closeTimer = setTimeout(() => close(room, DisconnectReason.ROOM_CLOSED), opts.departureTimeoutMs());
      room.closeTimer.unref();
    }
  }

  /** Ends the room for everyone in it (DeleteRoom, or empty past its departure timeout). */
  function close(room: DevRoom, reason: DisconnectReason) {
    if (rooms.get(room.name) !== room) return;
    clearTimeout(room.closeTimer);
    for (const p of [...room.participants.values()]) {
      p.link?.close(reason);
      leave(room, p, reason);
    }
    clearTimeout(room.closeTimer);
    rooms.delete(room.name);
    void webhooks.emit({ event: 'room_finished', room: room.info() });
  }

  /**
   * New grants take effect at once, as on LiveKit: tracks the new grant does not allow are
   * unpublished (and their publisher told), revoking canSubscribe stops the media already flowing
   * to the participant, granting it subscribes to what the room publishes.
   */
  function updatePermission(room: DevRoom, participant: DevParticipant, permission: DevParticipant['permission']) {
    const could = participant.permission.canSubscribe;
    participant.permission = permission;
    for (const track of [...participant.tracks.values()]) {
      if (mayPublish(permission, track.source)) continue;
      unpublish(room, participant, track);
      participant.link?.sendTrackUnpublished(track.sid);
    }
    if (!participant.link || could === permission.canSubscribe) return;
    if (permission.canSubscribe) return subscribeAll(room, participant);
    for (const other of room.participants.values())
      for (const track of other.tracks.values()) participant.link.unsubscribe(track.sid);
  }

  /** A track's media has arrived: every subscriber in the room receives it. */
  function publish(room: DevRoom, participant: DevParticipant, track: DevTrack) {
    for (const other of room.connected(participant)) {
      if (other.permission.canSubscribe) other.link!.subscribe(participant, track);
    }
    void webhooks.emit({
      event: 'track_published',
      room: room.info(),
      participant: participant.info(),
      track: trackInfo(track),
    });
  }

  function unpublish(room: DevRoom, participant: DevParticipant, track: DevTrack) {
    participant.tracks.delete(track.sid);
    for (const other of room.connected(participant)) other.link!.unsubscribe(track.sid);
    participant.touch();
    room.broadcastUpdate(participant);
    void webhooks.emit({
      event: 'track_unpublished',
      room: room.info(),
      participant: participant.info(),
      track: trackInfo(track),
    });
  }

  /** Moves a participant with its tracks to another room (a breakout). */
  function move(from: DevRoom, participant: DevParticipant, to: DevRoom) {
    if (from.participants.get(participant.identity) !== participant) return;
    from.participants.delete(participant.identity);
    from.forgetUpdates(participant);
    for (const track of participant.tracks.values())
      for (const other of from.connected()) other.link!.unsubscribe(track.sid);
    for (const other of from.participants.values())
      for (const track of other.tracks.values()) participant.link?.unsubscribe(track.sid);
    participant.touch();
    const gone = participant.info();
    gone.state = ParticipantInfo_State.DISCONNECTED;
    gone.disconnectReason = DisconnectReason.CLIENT_INITIATED;
    for (const other of from.connected()) other.link!.sendUpdate([gone]);
    const left = webhooks.emit({ event: 'participant_left', room: from.info(), participant: gone });
    if (from.participants.size === 0) {
      from.closeTimer = setTimeout(() => close(from, DisconnectReason.ROOM_CLOSED), opts.departureTimeoutMs());
      from.closeTimer.unref();
    }
    join(to, participant, left);
    for (const track of participant.tracks.values()) if (track.media) publish(to, participant, track);
    subscribeAll(to, participant);
  }

  /** Tells each room who is speaking now, when that changed (LiveKit's speaker updates). */
  function updateSpeakers(windowMs = 600) {
    const now = Date.now();
    for (const room of rooms.values()) {
      const speaking = new Map<string, number>();
      for (const p of room.participants.values()) {
        const levels = [...p.tracks.values()]
          .filter((t) => t.type === TrackType.AUDIO && !t.muted && t.speech && now - t.speech.at < windowMs)
          .map((t) => t.speech!.level);
        if (levels.length) speaking.set(p.sid, Math.max(...levels));
      }
      const changed =
        speaking.size !== room.speakers.size || [...speaking.keys()].some((sid) => !room.speakers.has(sid));
      if (!changed) continue;
      const speakers = [
        ...[...speaking].map(([sid, level]) => new SpeakerInfo({ sid, level, active: true })),
        ...[...room.speakers.keys()]
          .filter((sid) => !speaking.has(sid))
          .map((sid) => new SpeakerInfo({ sid, level: 0, active: false })),
      ];
      room.speakers = speaking;
      for (const p of room.connected()) p.link!.sendSpeakers(speakers);
    }
  }

  /**
   * Tells each connected participant the connection quality of everyone it can see and its own
   * (LiveKit's ConnectionQualityUpdate, every few seconds), rated from each publisher's received
   * media since the last update.
   */
  function updateConnectionQuality() {
    for (const room of rooms.values()) {
      const rated = new Map<DevParticipant, ConnectionQualityInfo>();
      for (const p of room.participants.values()) {
        const quality = rateConnection([...p.tracks.values()].map((t) => t.arrivals?.take()));
        rated.set(p, new ConnectionQualityInfo({ participantSid: p.sid, quality, score: SCORES[quality] }));
      }
      for (const p of room.connected()) {
        const seen = [p, ...room.visible(p)].map((other) => rated.get(other)!);
        p.link!.sendConnectionQuality(seen);
      }
    }
  }

  return {
    rooms,
    open,
    join,
    subscribeAll,
    updatePermission,
    leave,
    close,
    publish,
    unpublish,
    move,
    updateSpeakers,
    updateConnectionQuality,
  };
}
export type Registry = ReturnType<typeof createRegistry>;
