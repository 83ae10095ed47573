import { describe, expect, it } from 'vitest';
import { CHAT_TOPIC, mergeMessages, parseChatUpdate } from '@/components/call/chat-state';
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
const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

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

  it('reads only well-formed chat.message payloads on its own topic', () => {
    const m = msg('a', '2026-01-01T10:00:00.000Z', '<img src=x onerror=alert(1)>');
    expect(parseChatUpdate(CHAT_TOPIC, bytes({ type: 'chat.message', message: m }))).toEqual(m);
    expect(parseChatUpdate('convene.polls', bytes({ type: 'chat.message', message: m }))).toBeNull();
    expect(parseChatUpdate(CHAT_TOPIC, bytes('not json'))).toBeNull();
    expect(parseChatUpdate(CHAT_TOPIC, bytes({ type: 'poll.updated', message: m }))).toBeNull();
    expect(parseChatUpdate(CHAT_TOPIC, bytes({ type: 'chat.message', message: { id: 1 } }))).toBeNull();
  });
});
