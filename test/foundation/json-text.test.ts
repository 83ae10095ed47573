import { describe, expect, it } from 'vitest';
import { serializeOnce, toJsonText } from '@/lib/json-text';

describe('toJsonText', () => {
  const room = Object.freeze({
    id: 'r1',
    name: 'Standup "weekly"',
    participants: [{ id: 'p1', at: '2026-01-01T00:00:00.000Z' }],
  });
  serializeOnce(room);

  it('writes exactly what JSON.stringify writes, with or without members whose text is kept', () => {
    const values: unknown[] = [
      null,
      'text',
      42,
      [room, 1],
      { token: 'abc', waitingForApproval: false, participant: { id: 'p2', left: null }, room },
      { room, skipped: undefined, fn: () => 1, when: new Date(0), nested: { room } },
      { 'odd "key"\n': room },
      room,
      { toJSON: () => ({ room }) },
    ];
    for (const value of values) expect(toJsonText(value)).toBe(JSON.stringify(value));
  });

  it("uses the kept text: a registered value's text is made when it is registered, not again", () => {
    const held = { name: 'before' };
    expect(serializeOnce(held)).toBe('{"name":"before"}');
    held.name = 'after'; // never done by a caller (entries are frozen); shows which text is written
    expect(toJsonText({ room: held })).toBe('{"room":{"name":"before"}}');
    expect(JSON.parse(toJsonText({ room: held, n: 1 }))).toEqual({ room: { name: 'before' }, n: 1 });
  });
});
