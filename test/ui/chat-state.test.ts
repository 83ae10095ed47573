import { describe, expect, it } from 'vitest';
import { draftAfterFailedSend, mergeMessages } from '@/components/call/chat-state';
import type { ChatMessageResponse } from '@/components/call/participant-api';

const msg = (id: string, createdAt: string, text = id): ChatMessageResponse => ({
  id,
  roomId: 'r',
  sessionId: null,
  senderParticipantId: 'p',
  senderExternalUserId: 'u',
  senderName: 'U',
  toParticipantId: null,
  toExternalUserId: null,
  text,
  createdAt,
});

describe('chat panel state', () => {
  it('merges history, the send answer and the live relay into one ordered list, one entry per id', () => {
    const history = [msg('a', '2026-01-01T10:00:00.000Z'), msg('b', '2026-01-01T10:00:01.000Z')];
    const sent = msg('c', '2026-01-01T10:00:03.000Z');
    const live = msg('d', '2026-01-01T10:00:02.000Z');
    let list = mergeMessages([], history);
    list = mergeMessages(list, [sent]);
    list = mergeMessages(list, [live]);
    list = mergeMessages(list, [sent]); // the relay echoes our own message
    list = mergeMessages(list, history); // a re-read after a reconnect
    expect(list.map((m) => m.id)).toEqual(['a', 'b', 'd', 'c']);
    // Same instant: ordered by id, stably.
    expect(
      mergeMessages([msg('y', '2026-01-01T10:00:00.000Z')], [msg('x', '2026-01-01T10:00:00.000Z')]).map((m) => m.id),
    ).toEqual(['x', 'y']);
  });

  it('keeps the first copy of an id: a later message with that id, from anyone, does not rewrite it', () => {
    const real = { ...msg('m1', '2026-01-01T10:00:00.000Z', 'Standup at 10'), senderExternalUserId: 'host' };
    const forged = { ...real, senderExternalUserId: 'mallory', text: 'REWRITTEN: meeting cancelled' };
    expect(mergeMessages([real], [forged])).toEqual([real]);
  });

  it('gives back a failed message in front of what was typed while it was sending', () => {
    expect(draftAfterFailedSend('', 'first')).toBe('first');
    expect(draftAfterFailedSend('  ', 'first')).toBe('first');
    expect(draftAfterFailedSend('typed while sending', 'first')).toBe('first typed while sending');
  });
});
