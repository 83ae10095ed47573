'use client';

import { useEffect } from 'react';
import { ConnectionState, RoomEvent, type RemoteParticipant, type Room } from 'livekit-client';
import type { EmbedBridge } from '@/components/call/useEmbedBridge';
import type { EmbedEvents } from '@/lib/embed/messages';

/**
 * What the embedding page hears from inside a call — joined, people coming and going (names and
 * counts only), recording — and the commands it may give there: leave, toggle the microphone or
 * camera, and set the display name where the token allows it (Convene's tokens do not: names
 * are set through the API).
 */
export function useEmbedCallEvents(room: Room, bridge: EmbedBridge) {
  useEffect(() => {
    const count = () => room.remoteParticipants.size + 1;
    const onConnected = () => {
      bridge.post('joined', { participantCount: count() });
      if (room.isRecording) bridge.post('recording-started', {});
    };
    const peopleEvent = (event: 'participant-joined' | 'participant-left') => (p: RemoteParticipant) =>
      bridge.post(event, { displayName: p.name || p.identity, participantCount: count() });
    const onJoined = peopleEvent('participant-joined');
    const onLeft = peopleEvent('participant-left');
    const onRecording = (recording: boolean) => bridge.post(recording ? 'recording-started' : 'recording-stopped', {});
    room.on(RoomEvent.Connected, onConnected);
    room.on(RoomEvent.ParticipantConnected, onJoined);
    room.on(RoomEvent.ParticipantDisconnected, onLeft);
    room.on(RoomEvent.RecordingStatusChanged, onRecording);
    // The call renders once the join's first exchanges are done (start-call.ts): a viewer's room, or
    // one whose transport was quicker than its publications, has connected before this runs.
    if (room.state === ConnectionState.Connected) onConnected();

    bridge.setCommandHandler((cmd) => {
      const local = room.localParticipant;
      const fail = (reason: EmbedEvents['command-failed']['reason']) =>
        bridge.post('command-failed', { command: cmd.command, reason });
      // A command the token may not allow: refused up front, or by the media layer.
      const tryAllowed = (allowed: boolean | undefined, action: () => Promise<unknown>) => {
        if (!allowed) return fail('not-allowed');
        void action().catch(() => fail('not-allowed'));
      };
      if (room.state !== 'connected') return fail('not-in-call');
      switch (cmd.command) {
        case 'leave':
          void room.disconnect();
          return;
        case 'toggle-microphone':
          return tryAllowed(local.permissions?.canPublish, () =>
            local.setMicrophoneEnabled(!local.isMicrophoneEnabled),
          );
        case 'toggle-camera':
          return tryAllowed(local.permissions?.canPublish, () => local.setCameraEnabled(!local.isCameraEnabled));
        case 'set-display-name':
          return tryAllowed(local.permissions?.canUpdateMetadata, () => local.setName(cmd.displayName));
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
