import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIVE_MESSAGE_MAX_BYTES, LIVE_TOPICS } from '@/lib/live-topics';
import { parseLiveMessage } from '@/lib/live-messages';
import { decodePeerChat } from '@/components/call/peer-chat';
import { hostilePackets, issue33Packets, sampleChat, wellFormed } from '../support/hostile-messages';

// Reading the data channel (lib/live-messages.ts): what the call UI believes of a packet.

const bytes = (text: string) => new TextEncoder().encode(text);
const json = (v: unknown) => bytes(JSON.stringify(v));
const SERVER = ''; // the media layer stamps no identity on the server's own packets

/** Every string in a value, however deep. */
const stringsOf = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(stringsOf) : [];

describe('live messages', () => {
  const serverOnly = () => Object.entries(wellFormed()).filter(([topic]) => topic !== LIVE_TOPICS.reactions);

  it('reads each server-only topic’s well-formed message when the server sent it', () => {
    for (const [topic, body] of serverOnly()) {
      expect(parseLiveMessage(topic, json(body), SERVER)).toEqual({ topic, sender: null, body });
      expect(parseLiveMessage(topic, json(body), undefined)).toMatchObject({ sender: null });
    }
  });

  it('believes no participant on a server-only topic: polls, questions, chat and host notices', () => {
    for (const [topic, body] of serverOnly()) {
      expect(parseLiveMessage(topic, json(body), 'viewer-identity')).toBeNull();
    }
  });

  it('reads a participant topic (reactions) only from a participant, named by the packet, not the payload', () => {
    const reaction = { type: 'reaction', emoji: '👏', from: 'host' };
    expect(parseLiveMessage(LIVE_TOPICS.reactions, json(reaction), 'viewer-identity')).toEqual({
      topic: LIVE_TOPICS.reactions,
      sender: 'viewer-identity',
      body: { type: 'reaction', emoji: '👏' },
    });
    expect(parseLiveMessage(LIVE_TOPICS.reactions, json(reaction), SERVER)).toBeNull();
    expect(
      parseLiveMessage(LIVE_TOPICS.reactions, json({ ...reaction, emoji: '<img>' }), 'viewer-identity'),
    ).toBeNull();
  });

  it('drops the forged packets of issue 33, even had the server sent them', () => {
    const host = { externalUserId: 'host', displayName: 'Hana Host' };
    const forged = issue33Packets({ id: 'msg_1', senderParticipantId: 'part_host' }, host, 'viewer');
    // The crashing poll (options [null]) and question (answerText an object) do not fit their schemas.
    for (const { topic, text } of forged.slice(0, 2)) expect(parseLiveMessage(topic, bytes(text), SERVER)).toBeNull();
    // Forged chat fits the schema: only its sender gives it away.
    for (const { topic, text } of forged.slice(2)) {
      expect(parseLiveMessage(topic, bytes(text), 'viewer-identity')).toBeNull();
    }
  });

  it('drops other topics, a message on the wrong topic, unknown types and garbage', () => {
    const { 'convene.polls': poll, 'convene.chat': chat } = wellFormed();
    expect(parseLiveMessage('lk-chat-topic', json(chat), SERVER)).toBeNull();
    expect(parseLiveMessage('__proto__', json(chat), SERVER)).toBeNull();
    expect(parseLiveMessage(undefined, json(chat), SERVER)).toBeNull();
    expect(parseLiveMessage(LIVE_TOPICS.chat, json(poll), SERVER)).toBeNull();
    expect(parseLiveMessage(LIVE_TOPICS.polls, json({ ...poll, type: 'poll.deleted' }), SERVER)).toBeNull();
    expect(parseLiveMessage(LIVE_TOPICS.polls, bytes('not json {'), SERVER)).toBeNull();
    expect(parseLiveMessage(LIVE_TOPICS.polls, new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), SERVER)).toBeNull();
    expect(
      parseLiveMessage(LIVE_TOPICS.polls, bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), SERVER),
    ).toBeNull();
  });

  it('bounds sizes: huge packets and over-long fields are dropped', () => {
    const long = (n: number) => 'x'.repeat(n);
    const chat = (text: string) => json({ type: 'chat.message', message: sampleChat({ text }) });
    expect(parseLiveMessage(LIVE_TOPICS.chat, chat(long(2000)), SERVER)).not.toBeNull();
    expect(parseLiveMessage(LIVE_TOPICS.chat, chat(long(2001)), SERVER)).toBeNull();
    const padded = { ...wellFormed()['convene.chat'], padding: long(LIVE_MESSAGE_MAX_BYTES) };
    expect(parseLiveMessage(LIVE_TOPICS.chat, json(padded), SERVER)).toBeNull();
    const { 'convene.polls': poll } = wellFormed();
    const manyOptions = Array.from({ length: 11 }, (_, i) => ({ id: `o${i}`, text: 'o', order: i, count: 0 }));
    expect(
      parseLiveMessage(LIVE_TOPICS.polls, json({ ...poll, poll: { ...poll.poll, options: manyOptions } }), SERVER),
    ).toBeNull();
  });

  it('never throws, and whatever it accepts has the shapes the panels render (fast-check)', () => {
    fc.assert(
      fc.property(hostilePackets(), fc.constantFrom(SERVER, 'viewer-identity'), ({ topic, text }, sender) => {
        const message = parseLiveMessage(topic, bytes(text), sender);
        if (!message) return;
        expect(sender).toBe(message.topic === LIVE_TOPICS.reactions ? 'viewer-identity' : SERVER);
        for (const s of stringsOf(message.body)) expect(s.length).toBeLessThanOrEqual(5000);
        const body = message.body as Record<string, unknown>;
        if (message.topic === LIVE_TOPICS.polls) {
          const { poll } = message.body as { poll: { options: { text: unknown; count: unknown }[] } };
          for (const o of poll.options) {
            expect(typeof o.text).toBe('string');
            expect(Number.isInteger(o.count)).toBe(true);
          }
        }
        if (message.topic === LIVE_TOPICS.questions) {
          const { question } = body as { question: { answerText: unknown; text: unknown } };
          expect(typeof question.text).toBe('string');
          expect(question.answerText === null || typeof question.answerText === 'string').toBe(true);
        }
        if (message.topic === LIVE_TOPICS.chat) {
          const { message: m } = body as { message: { text: unknown; senderName: unknown } };
          expect([typeof m.text, typeof m.senderName]).toEqual(['string', 'string']);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('peer chat (E2EE rooms)', () => {
  it('reads a peer’s packet as bounded text under an id of ours, and anything else as nothing, never throwing', () => {
    const read = decodePeerChat(json({ id: 'host-message-1', message: 'hi', timestamp: 1 }));
    expect(read.message).toBe('hi');
    expect(read.id).not.toBe('host-message-1'); // a reused id cannot replace another sender's message
    expect(decodePeerChat(json({ message: 'x'.repeat(5000) })).message).toHaveLength(2000);
    for (const bad of [bytes('not json'), json(null), json({ message: { nested: 1 } }), json([1]), json('str')])
      expect(decodePeerChat(bad).message).toBe('');
    expect(decodePeerChat(json({ message: 'y'.repeat(LIVE_MESSAGE_MAX_BYTES + 1) })).message).toBe('');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (payload) => typeof decodePeerChat(payload).message === 'string'),
    );
  });
});
