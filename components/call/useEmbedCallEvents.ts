'use client';

import { useEffect } from 'react';
import { RoomEvent, type RemoteParticipant, type Room } from 'livekit-client';
import type { EmbedBridge } from '@/components/call/useEmbedBridge';

/**
 * What the embedding page hears from inside a call — joined, people coming and going (names and
 * counts only), recording — and the commands it may give there: leave, toggle the microphone or
 * camera, and set the display name where the token allows it (Convene's tokens do not: names
 * are set through the API).
 */
export function useEmbedCallEvents(room: Room, bridge: EmbedBridge) {
  useEffect(() => {
    const count = () => room.remoteParticipants.size + 1;
    const nameOf = (p: RemoteParticipant) => p.name || p.identity;
    const onConnected = () => {
      bridge.post('joined', { participantCount: count() });
      if (room.isRecording) bridge.post('recording-started', {});
    };
    const onJoined = (p: RemoteParticipant) =>
      bridge.post('participant-joined', { displayName: nameOf(p), participantCount: count() });
    const onLeft = (p: RemoteParticipant) =>
      bridge.post('participant-left', { displayName: nameOf(p), participantCount: count() });
    const onRecording = (recording: boolean) => bridge.post(recording ? 'recording-started' : 'recording-stopped', {});
    room.on(RoomEvent.Connected, onConnected);
    room.on(RoomEvent.ParticipantConnected, onJoined);
    room.on(RoomEvent.ParticipantDisconnected, onLeft);
    room.on(RoomEvent.RecordingStatusChanged, onRecording);

    bridge.setCommandHandler((cmd) => {
      const local = room.localParticipant;
      if (room.state !== 'connected')
        return bridge.post('command-failed', { command: cmd.command, reason: 'not-in-call' });
      switch (cmd.command) {
        case 'leave':
          void room.disconnect();
          return;
        case 'toggle-microphone':
          if (!local.permissions?.canPublish)
            return bridge.post('command-failed', { command: cmd.command, reason: 'not-allowed' });
          void local
            .setMicrophoneEnabled(!local.isMicrophoneEnabled)
            .catch(() => bridge.post('command-failed', { command: cmd.command, reason: 'not-allowed' }));
          return;
        case 'toggle-camera':
          if (!local.permissions?.canPublish)
            return bridge.post('command-failed', { command: cmd.command, reason: 'not-allowed' });
          void local
            .setCameraEnabled(!local.isCameraEnabled)
            .catch(() => bridge.post('command-failed', { command: cmd.command, reason: 'not-allowed' }));
          return;
        case 'set-display-name':
          if (!local.permissions?.canUpdateMetadata)
            return bridge.post('command-failed', { command: cmd.command, reason: 'not-allowed' });
          void local
            .setName(cmd.displayName)
            .catch(() => bridge.post('command-failed', { command: cmd.command, reason: 'not-allowed' }));
          return;
      }
    });
    return () => {
      room.off(RoomEvent.Connected, onConnected);
      room.off(RoomEvent.ParticipantConnected, onJoined);
      room.off(RoomEvent.ParticipantDisconnected, onLeft);
      room.off(RoomEvent.RecordingStatusChanged, onRecording);
      bridge.setCommandHandler(null);
    };
  }, [room, bridge]);
}
