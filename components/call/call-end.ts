import { ConnectionError, ConnectionErrorReason, DisconnectReason } from 'livekit-client';
import type { ErrorKey } from '@/lib/i18n/en';

/** What ends the call screen, and whether offering to go back in makes sense. */
export interface CallEnd {
  error: ErrorKey;
  retry: boolean;
}

/** Maps a connection failure (livekit-client's ConnectionError and its reason) to what a person should read. */
export function connectFailure(err: unknown): CallEnd {
  if (err instanceof ConnectionError) {
    if (err.reason === ConnectionErrorReason.NotAllowed) return { error: 'refused', retry: true };
    if (err.reason === ConnectionErrorReason.ServerUnreachable) return { error: 'unreachable', retry: true };
    // The server answered the join with a leave (removed, room closed, ...): its reason says why.
    if (err.reason === ConnectionErrorReason.LeaveRequest)
      return disconnected(err.context as DisconnectReason | undefined);
  }
  return { error: 'unknown', retry: true };
}

/** Maps the media layer's reason for a disconnect: removed and ended are final; a lost connection can be retried. */
export function disconnected(reason?: DisconnectReason): CallEnd {
  if (reason === DisconnectReason.PARTICIPANT_REMOVED) return { error: 'removed', retry: false };
  if (reason === DisconnectReason.ROOM_DELETED || reason === DisconnectReason.ROOM_CLOSED)
    return { error: 'ended', retry: false };
  if (reason === DisconnectReason.DUPLICATE_IDENTITY) return { error: 'duplicate', retry: true };
  if (reason === DisconnectReason.CLIENT_INITIATED) return { error: 'left', retry: true };
  return { error: 'networkLost', retry: true };
}
