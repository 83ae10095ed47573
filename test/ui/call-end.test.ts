import { describe, expect, it } from 'vitest';
import { ConnectionError, DisconnectReason } from 'livekit-client';
import { connectFailure, disconnected } from '@/components/call/call-end';
import { t } from '@/lib/i18n/en';

// The in-call endings the browser tests cannot reach (the fake media layer has no WebRTC):
// each LiveKit reason gets its own message, and only the recoverable ones offer a way back.
describe('how a call ends, as a person reads it', () => {
  it('maps each disconnect reason', () => {
    expect(disconnected(DisconnectReason.PARTICIPANT_REMOVED)).toEqual({ error: 'removed', retry: false });
    expect(disconnected(DisconnectReason.ROOM_DELETED)).toEqual({ error: 'ended', retry: false });
    expect(disconnected(DisconnectReason.ROOM_CLOSED)).toEqual({ error: 'ended', retry: false });
    expect(disconnected(DisconnectReason.DUPLICATE_IDENTITY)).toEqual({ error: 'duplicate', retry: true });
    expect(disconnected(DisconnectReason.CLIENT_INITIATED)).toEqual({ error: 'left', retry: true });
    for (const reason of [
      DisconnectReason.SIGNAL_CLOSE,
      DisconnectReason.STATE_MISMATCH,
      DisconnectReason.JOIN_FAILURE,
      undefined,
    ]) {
      expect(disconnected(reason)).toEqual({ error: 'networkLost', retry: true });
    }
  });

  it('maps connection failures', () => {
    expect(connectFailure(ConnectionError.notAllowed('no', 401))).toEqual({ error: 'refused', retry: true });
    expect(connectFailure(ConnectionError.serverUnreachable('down'))).toEqual({ error: 'unreachable', retry: true });
    expect(connectFailure(ConnectionError.leaveRequest('left', DisconnectReason.PARTICIPANT_REMOVED))).toEqual({
      error: 'removed',
      retry: false,
    });
    expect(connectFailure(new Error('other'))).toEqual({ error: 'unknown', retry: true });
  });

  it('every ending has its own title and text', () => {
    const keys = [
      'removed',
      'ended',
      'left',
      'duplicate',
      'networkLost',
      'refused',
      'unreachable',
      'unknown',
      'locked',
      'roomFull',
      'denied',
    ] as const;
    const titles = keys.map((k) => t.errors[k].title);
    expect(new Set(titles).size).toBe(keys.length);
    for (const k of keys) expect(t.errors[k].body.length).toBeGreaterThan(10);
  });
});
