import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  other = await seedTenant();
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host' } })).body;
  for (const [who, role] of [['host', 'HOST'], ['amy', 'ATTENDEE'], ['bob', 'ATTENDEE']] as const) {
    tokens[who] = (await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: t.key, body: { externalUserId: who, displayName: who, role } })).body.token;
  }
  for (let i = 0; i < 30; i++) await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: t.key, body: { externalUserId: `voter-${i}`, displayName: `V${i}` } });
  suite.media.addParticipant(room.mediaRoomName, { identity: 'someone' }); // the media room exists, so live updates are sent
});

const newPoll = (body: Record<string, unknown> = {}) =>
  suite.api('POST', '/api/v1/polls', { key: t.key, body: { roomId: room.id, createdByExternalId: 'host', question: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], ...body } });

describe('polls', () => {
  it('a host creates a poll with a participant token; an attendee with a valid token is refused 403', async () => {
    const created = await suite.api('POST', '/api/v1/polls/public', { bearer: tokens.host, body: { question: 'Ready?', options: ['Yes', 'No'], status: 'OPEN' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ roomId: room.id, status: 'OPEN', totalVotes: 0, options: [{ text: 'Yes', order: 0, count: 0 }, { text: 'No', order: 1, count: 0 }] });
    const refused = await suite.api('POST', '/api/v1/polls/public', { bearer: tokens.amy, body: { question: 'Mine?', options: ['a', 'b'] } });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await suite.api('POST', '/api/v1/polls/public', { bearer: 'not-a-token', body: { question: 'x', options: ['a', 'b'] } })).status).toBe(401);
    expect((await suite.api('POST', '/api/v1/polls/public', { body: { question: 'x', options: ['a', 'b'] } })).status).toBe(401);
    expect((await suite.api('POST', '/api/v1/polls/public', { bearer: tokens.host, body: { question: 'x', options: ['only one'] } })).status).toBe(400);
    expect((await suite.api('POST', '/api/v1/polls/public', { bearer: tokens.host, body: { question: 'x', options: Array(11).fill('o') } })).status).toBe(400);
    const sent = suite.media.callsTo('SendData').filter((c) => c.body.topic === 'convene.polls');
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.parse(Buffer.from(sent.at(-1)!.body.data, 'base64').toString())).toMatchObject({ type: 'poll.updated', poll: { id: created.body.id } });
  });

  it('a token whose metadata claims HOST is still an attendee to us', async () => {
    // Participants can rewrite their own metadata; our database decides the role.
    await db().participant.updateMany({ where: { roomId: room.id, externalUserId: 'amy' }, data: { externalRole: 'HOST' } });
    const refused = await suite.api('POST', '/api/v1/polls/public', { bearer: tokens.amy, body: { question: 'Mine?', options: ['a', 'b'] } });
    expect(refused.status).toBe(403);
  });

  it('DRAFT → OPEN → CLOSED; votes only while OPEN (409); unknown option 400; host-only transitions', async () => {
    const poll = (await newPoll()).body;
    expect(poll.status).toBe('DRAFT');
    const vote = (voter: string, optionIds: string[]) => suite.api('POST', `/api/v1/polls/${poll.id}/vote`, { key: t.key, body: { voterExternalId: voter, optionIds } });
    expect((await vote('amy', [poll.options[0].id])).body.error.code).toBe('INVALID_STATE');
    expect((await suite.api('POST', `/api/v1/polls/${poll.id}/open`, { key: t.key, body: { actorExternalId: 'amy' } })).status).toBe(403);
    expect((await suite.api('POST', `/api/v1/polls/${poll.id}/open`, { key: t.key, body: { actorExternalId: 'host' } })).body.status).toBe('OPEN');
    const unknown = await vote('amy', ['nope']);
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await vote('amy', [poll.options[0].id, poll.options[1].id])).status).toBe(400); // single-choice poll
    expect((await vote('stranger', [poll.options[0].id])).status).toBe(403);
    await vote('amy', [poll.options[0].id]);
    const revote = await vote('amy', [poll.options[1].id]);
    expect(revote.body).toMatchObject({ totalVotes: 1 });
    expect(revote.body.options.map((o: { count: number }) => o.count)).toEqual([0, 1, 0]);
    expect(revote.body.votes).toEqual([{ optionId: poll.options[1].id, voterExternalId: 'amy' }]);
    const closed = await suite.api('POST', `/api/v1/polls/${poll.id}/close`, { key: t.key, body: { actorExternalId: 'host' } });
    expect(closed.body).toMatchObject({ status: 'CLOSED', closedAt: expect.any(String) });
    const late = await vote('bob', [poll.options[0].id]);
    expect([late.status, late.body.error.code]).toEqual([409, 'INVALID_STATE']);
    expect((await suite.api('POST', `/api/v1/polls/${poll.id}/close`, { key: t.key, body: { actorExternalId: 'host' } })).status).toBe(409);
  });

  it('concurrent votes leave exact counts; anonymous polls hide voters', async () => {
    const poll = (await newPoll({ status: 'OPEN', isAnonymous: true, allowMultiple: true })).body;
    const [a, b, c] = poll.options.map((o: { id: string }) => o.id);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        suite.api('POST', `/api/v1/polls/${poll.id}/vote`, { key: t.key, body: { voterExternalId: `voter-${i}`, optionIds: i % 3 === 0 ? [a, b] : i % 3 === 1 ? [b] : [c] } }),
      ),
    );
    const result = (await suite.api('GET', `/api/v1/polls/${poll.id}`, { key: t.key })).body;
    expect(result.totalVotes).toBe(30);
    expect(result.options.map((o: { count: number }) => o.count)).toEqual([10, 20, 10]);
    expect(result.votes).toBeUndefined();
    expect(await db().pollVote.count({ where: { pollId: poll.id } })).toBe(40);
  });

  it('participants list and vote in their own room through their token', async () => {
    const poll = (await newPoll({ status: 'OPEN' })).body;
    const list = await suite.api('GET', '/api/v1/polls/public', { bearer: tokens.bob });
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(poll.id);
    const voted = await suite.api('POST', `/api/v1/polls/public/${poll.id}/vote`, { bearer: tokens.bob, body: { optionIds: [poll.options[2].id] } });
    expect(voted.body.options[2].count).toBe(1);
    expect((await suite.api('POST', `/api/v1/polls/public/${poll.id}/close`, { bearer: tokens.bob })).status).toBe(403);
    expect((await suite.api('POST', `/api/v1/polls/public/${poll.id}/close`, { bearer: tokens.host })).body.status).toBe('CLOSED');
    // A poll of another room is not visible through this token.
    const otherRoom = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host' } })).body;
    await suite.api('POST', `/api/v1/rooms/${otherRoom.id}/join`, { key: t.key, body: { externalUserId: 'host', displayName: 'H', role: 'HOST' } });
    const foreign = (await suite.api('POST', '/api/v1/polls', { key: t.key, body: { roomId: otherRoom.id, createdByExternalId: 'host', question: 'Q', options: ['a', 'b'], status: 'OPEN' } })).body;
    expect((await suite.api('POST', `/api/v1/polls/public/${foreign.id}/vote`, { bearer: tokens.bob, body: { optionIds: [foreign.options[0].id] } })).status).toBe(404);
  });

  it("another tenant's polls are 404", async () => {
    const poll = (await newPoll()).body;
    expect((await suite.api('GET', `/api/v1/polls/${poll.id}`, { key: other.key })).status).toBe(404);
    expect((await suite.api('GET', `/api/v1/polls?roomId=${room.id}`, { key: other.key })).status).toBe(404);
    expect((await suite.api('POST', `/api/v1/polls/${poll.id}/close`, { key: other.key, body: { actorExternalId: 'host' } })).status).toBe(404);
  });
});

describe('questions', () => {
  it('ask, upvote once per user (also concurrently), answer, dismiss', async () => {
    const asked = await suite.api('POST', '/api/v1/questions/public', { bearer: tokens.amy, body: { text: 'When is the break?' } });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'OPEN', askerExternalId: 'amy', askerName: 'amy', upvoteCount: 0 });
    const q = asked.body;
    await Promise.all(Array.from({ length: 10 }, () => suite.api('POST', `/api/v1/questions/public/${q.id}/upvote`, { bearer: tokens.bob })));
    await Promise.all(Array.from({ length: 20 }, (_, i) => suite.api('POST', `/api/v1/questions/${q.id}/upvote`, { key: t.key, body: { voterExternalId: `voter-${i}` } })));
    expect((await suite.api('GET', `/api/v1/questions/${q.id}`, { key: t.key })).body.upvoteCount).toBe(21);

    const second = (await suite.api('POST', '/api/v1/questions', { key: t.key, body: { roomId: room.id, text: 'Slides?', askerExternalId: 'bob' } })).body;
    const byVotes = await suite.api('GET', `/api/v1/questions?roomId=${room.id}&sort=upvotes`, { key: t.key });
    expect(byVotes.body.data.map((x: { id: string }) => x.id).slice(0, 2)).toEqual([q.id, second.id]);
    const recent = await suite.api('GET', '/api/v1/questions/public?sort=recent', { bearer: tokens.amy });
    expect(recent.body.data[0].id).toBe(second.id);

    expect((await suite.api('POST', `/api/v1/questions/${q.id}/answer`, { key: t.key, body: { answerText: 'At 3', answeredByExternalId: 'amy' } })).status).toBe(403);
    const answered = await suite.api('POST', `/api/v1/questions/${q.id}/answer`, { key: t.key, body: { answerText: 'At 3', answeredByExternalId: 'host' } });
    expect(answered.body).toMatchObject({ status: 'ANSWERED', answerText: 'At 3', answeredByExternalId: 'host', answeredAt: expect.any(String) });
    expect((await suite.api('POST', `/api/v1/questions/${q.id}/upvote`, { key: t.key, body: { voterExternalId: 'voter-29' } })).status).toBe(409);
    const dismissed = await suite.api('POST', `/api/v1/questions/${second.id}/dismiss`, { key: t.key, body: { actorExternalId: 'host' } });
    expect(dismissed.body).toMatchObject({ status: 'DISMISSED', dismissedByExternalId: 'host' });
    expect((await suite.api('POST', `/api/v1/questions/${second.id}/dismiss`, { key: t.key, body: { actorExternalId: 'host' } })).status).toBe(409);
    expect((await suite.api('POST', `/api/v1/questions/${second.id}/dismiss`, { key: t.key, body: {} })).status).toBe(400);
    const live = suite.media.callsTo('SendData').filter((c) => c.body.topic === 'convene.questions');
    expect(JSON.parse(Buffer.from(live.at(-1)!.body.data, 'base64').toString())).toMatchObject({ type: 'question.updated', question: { id: second.id, status: 'DISMISSED' } });
  });

  it('only participants ask; another tenant sees 404', async () => {
    expect((await suite.api('POST', '/api/v1/questions', { key: t.key, body: { roomId: room.id, text: 'Hi', askerExternalId: 'stranger' } })).status).toBe(403);
    const q = (await suite.api('POST', '/api/v1/questions', { key: t.key, body: { roomId: room.id, text: 'Hi', askerExternalId: 'bob' } })).body;
    expect((await suite.api('GET', `/api/v1/questions/${q.id}`, { key: other.key })).status).toBe(404);
    expect((await suite.api('POST', `/api/v1/questions/${q.id}/dismiss`, { key: other.key, body: { actorExternalId: 'host' } })).status).toBe(404);
    expect((await suite.api('GET', `/api/v1/questions?roomId=${room.id}`, { key: other.key })).status).toBe(404);
  });
});
