import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinRoom } from '../support/rooms';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  other = await seedTenant();
  room = await createRoom(suite, t.key, { createdByExternalId: 'host' });
  for (const [who, role] of [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
    ['bob', 'ATTENDEE'],
  ] as const) {
    tokens[who] = (await joinRoom(suite, t.key, room.id, { externalUserId: who, displayName: who, role })).token;
  }
  for (let i = 0; i < 30; i++)
    await joinRoom(suite, t.key, room.id, { externalUserId: `voter-${i}`, displayName: `V${i}` });
  suite.media.addParticipant(room.mediaRoomName, { identity: 'someone' }); // the media room exists, so live updates are sent
});

/** A second room of the same tenant, which 'host' hosts too. */
async function roomHostedByHost() {
  const other = await createRoom(suite, t.key, { createdByExternalId: 'host' });
  await joinRoom(suite, t.key, other.id, { externalUserId: 'host', displayName: 'H', role: 'HOST' });
  return other;
}

const newPoll = (body: Record<string, unknown> = {}) =>
  suite.api('POST', '/api/v1/polls', {
    key: t.key,
    body: {
      roomId: room.id,
      createdByExternalId: 'host',
      question: 'Lunch?',
      options: ['Pizza', 'Sushi', 'Salad'],
      ...body,
    },
  });

describe('polls', () => {
  it('a host creates a poll with a participant token; an attendee with a valid token is refused 403', async () => {
    const created = await suite.api('POST', '/api/v1/polls/public', {
      bearer: tokens.host,
      body: { question: 'Ready?', options: ['Yes', 'No'], status: 'OPEN' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      roomId: room.id,
      status: 'OPEN',
      totalVotes: 0,
      options: [
        { text: 'Yes', order: 0, count: 0 },
        { text: 'No', order: 1, count: 0 },
      ],
    });
    const refused = await suite.api('POST', '/api/v1/polls/public', {
      bearer: tokens.amy,
      body: { question: 'Mine?', options: ['a', 'b'] },
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(
      (
        await suite.api('POST', '/api/v1/polls/public', {
          bearer: 'not-a-token',
          body: { question: 'x', options: ['a', 'b'] },
        })
      ).status,
    ).toBe(401);
    expect(
      (await suite.api('POST', '/api/v1/polls/public', { body: { question: 'x', options: ['a', 'b'] } })).status,
    ).toBe(401);
    expect(
      (
        await suite.api('POST', '/api/v1/polls/public', {
          bearer: tokens.host,
          body: { question: 'x', options: ['only one'] },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await suite.api('POST', '/api/v1/polls/public', {
          bearer: tokens.host,
          body: { question: 'x', options: Array(11).fill('o') },
        })
      ).status,
    ).toBe(400);
    const sent = suite.media.callsTo('SendData').filter((c) => c.body.topic === 'convene.polls');
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.parse(Buffer.from(sent.at(-1)!.body.data, 'base64').toString())).toMatchObject({
      type: 'poll.updated',
      poll: { id: created.body.id },
    });
  });

  it('a token whose metadata claims HOST is still an attendee to us', async () => {
    // Participants can rewrite their own metadata; our database decides the role.
    await db().participant.updateMany({
      where: { roomId: room.id, externalUserId: 'amy' },
      data: { externalRole: 'HOST' },
    });
    const refused = await suite.api('POST', '/api/v1/polls/public', {
      bearer: tokens.amy,
      body: { question: 'Mine?', options: ['a', 'b'] },
    });
    expect(refused.status).toBe(403);
  });

  it('DRAFT → OPEN → CLOSED; votes only while OPEN (409); unknown option 400; host-only transitions', async () => {
    const poll = (await newPoll()).body;
    expect(poll.status).toBe('DRAFT');
    const vote = (voter: string, optionIds: string[]) =>
      suite.api('POST', `/api/v1/polls/${poll.id}/vote`, { key: t.key, body: { voterExternalId: voter, optionIds } });
    expect((await vote('amy', [poll.options[0].id])).body.error.code).toBe('INVALID_STATE');
    expect(
      (await suite.api('POST', `/api/v1/polls/${poll.id}/open`, { key: t.key, body: { actorExternalId: 'amy' } }))
        .status,
    ).toBe(403);
    expect(
      (await suite.api('POST', `/api/v1/polls/${poll.id}/open`, { key: t.key, body: { actorExternalId: 'host' } })).body
        .status,
    ).toBe('OPEN');
    const unknown = await vote('amy', ['nope']);
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await vote('amy', [poll.options[0].id, poll.options[1].id])).status).toBe(400); // single-choice poll
    await vote('amy', [poll.options[0].id]);
    const revote = await vote('amy', [poll.options[1].id]);
    expect(revote.body).toMatchObject({ totalVotes: 1 });
    expect(revote.body.options.map((o: { count: number }) => o.count)).toEqual([0, 1, 0]);
    expect(revote.body.votes).toEqual([{ optionId: poll.options[1].id, voterExternalId: 'amy' }]);
    const closed = await suite.api('POST', `/api/v1/polls/${poll.id}/close`, {
      key: t.key,
      body: { actorExternalId: 'host' },
    });
    expect(closed.body).toMatchObject({ status: 'CLOSED', closedAt: expect.any(String) });
    const late = await vote('bob', [poll.options[0].id]);
    expect([late.status, late.body.error.code]).toEqual([409, 'INVALID_STATE']);
    expect(
      (await suite.api('POST', `/api/v1/polls/${poll.id}/close`, { key: t.key, body: { actorExternalId: 'host' } }))
        .status,
    ).toBe(409);
  });

  it('concurrent votes leave exact counts; anonymous polls hide voters', async () => {
    const poll = (await newPoll({ status: 'OPEN', isAnonymous: true, allowMultiple: true })).body;
    const [a, b, c] = poll.options.map((o: { id: string }) => o.id);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        suite.api('POST', `/api/v1/polls/${poll.id}/vote`, {
          key: t.key,
          body: { voterExternalId: `voter-${i}`, optionIds: i % 3 === 0 ? [a, b] : i % 3 === 1 ? [b] : [c] },
        }),
      ),
    );
    const result = (await suite.api('GET', `/api/v1/polls/${poll.id}`, { key: t.key })).body;
    expect(result.totalVotes).toBe(30);
    expect(result.options.map((o: { count: number }) => o.count)).toEqual([10, 20, 10]);
    expect(result.votes).toBeUndefined();
    expect(await db().pollVote.count({ where: { pollId: poll.id } })).toBe(40);
  });

  it('the tenant key votes for any user of the tenant (one ballot each, anonymity kept); tokens stay strict', async () => {
    const poll = (await newPoll({ status: 'OPEN', isAnonymous: true })).body;
    const vote = (voter: string, optionIds: string[]) =>
      suite.api('POST', `/api/v1/polls/${poll.id}/vote`, { key: t.key, body: { voterExternalId: voter, optionIds } });
    // A webinar viewer who never joined the room votes through the tenant's backend.
    const first = await vote('viewer-outside', [poll.options[0].id]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ totalVotes: 1 });
    expect(first.body.votes).toBeUndefined();
    const again = await vote('viewer-outside', [poll.options[1].id]);
    expect(again.body.totalVotes).toBe(1);
    expect(again.body.options.map((o: { count: number }) => o.count)).toEqual([0, 1, 0]);
    expect(await db().pollVote.count({ where: { pollId: poll.id, voterExternalId: 'viewer-outside' } })).toBe(1);
    // Another tenant's key still cannot reach the poll.
    expect(
      (
        await suite.api('POST', `/api/v1/polls/${poll.id}/vote`, {
          key: other.key,
          body: { voterExternalId: 'viewer-outside', optionIds: [poll.options[0].id] },
        })
      ).status,
    ).toBe(404);
    // A participant removed from the room keeps a valid token but can no longer vote with it.
    const removed = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'leaver', displayName: 'L' },
    });
    await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${removed.body.participant.id}/remove`, {
      key: t.key,
    });
    const refused = await suite.api('POST', `/api/v1/polls/public/${poll.id}/vote`, {
      bearer: removed.body.token,
      body: { optionIds: [poll.options[0].id] },
    });
    expect(refused.status).toBe(403);
  });

  it('participants list and vote in their own room through their token', async () => {
    const poll = (await newPoll({ status: 'OPEN' })).body;
    const list = await suite.api('GET', '/api/v1/polls/public', { bearer: tokens.bob });
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(poll.id);
    const voted = await suite.api('POST', `/api/v1/polls/public/${poll.id}/vote`, {
      bearer: tokens.bob,
      body: { optionIds: [poll.options[2].id] },
    });
    expect(voted.body.options[2].count).toBe(1);
    expect((await suite.api('POST', `/api/v1/polls/public/${poll.id}/close`, { bearer: tokens.bob })).status).toBe(403);
    expect(
      (await suite.api('POST', `/api/v1/polls/public/${poll.id}/close`, { bearer: tokens.host })).body.status,
    ).toBe('CLOSED');
    // A poll of another room is not visible through this token.
    const otherRoom = await roomHostedByHost();
    const foreign = (
      await suite.api('POST', '/api/v1/polls', {
        key: t.key,
        body: { roomId: otherRoom.id, createdByExternalId: 'host', question: 'Q', options: ['a', 'b'], status: 'OPEN' },
      })
    ).body;
    expect(
      (
        await suite.api('POST', `/api/v1/polls/public/${foreign.id}/vote`, {
          bearer: tokens.bob,
          body: { optionIds: [foreign.options[0].id] },
        })
      ).status,
    ).toBe(404);
  });

  it("another tenant's polls are 404", async () => {
    const poll = (await newPoll()).body;
    expect((await suite.api('GET', `/api/v1/polls/${poll.id}`, { key: other.key })).status).toBe(404);
    expect((await suite.api('GET', `/api/v1/polls?roomId=${room.id}`, { key: other.key })).status).toBe(404);
    expect(
      (await suite.api('POST', `/api/v1/polls/${poll.id}/close`, { key: other.key, body: { actorExternalId: 'host' } }))
        .status,
    ).toBe(404);
  });
});

describe('questions', () => {
  it('ask, upvote once per user (also concurrently), answer, dismiss', async () => {
    const asked = await suite.api('POST', '/api/v1/questions/public', {
      bearer: tokens.amy,
      body: { text: 'When is the break?' },
    });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'OPEN', askerExternalId: 'amy', askerName: 'amy', upvoteCount: 0 });
    const q = asked.body;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        suite.api('POST', `/api/v1/questions/public/${q.id}/upvote`, { bearer: tokens.bob }),
      ),
    );
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        suite.api('POST', `/api/v1/questions/${q.id}/upvote`, { key: t.key, body: { voterExternalId: `voter-${i}` } }),
      ),
    );
    expect((await suite.api('GET', `/api/v1/questions/${q.id}`, { key: t.key })).body.upvoteCount).toBe(21);

    const second = (
      await suite.api('POST', '/api/v1/questions', {
        key: t.key,
        body: { roomId: room.id, text: 'Slides?', askerExternalId: 'bob' },
      })
    ).body;
    const byVotes = await suite.api('GET', `/api/v1/questions?roomId=${room.id}&sort=upvotes`, { key: t.key });
    expect(byVotes.body.data.map((x: { id: string }) => x.id).slice(0, 2)).toEqual([q.id, second.id]);
    const recent = await suite.api('GET', '/api/v1/questions/public?sort=recent', { bearer: tokens.amy });
    expect(recent.body.data[0].id).toBe(second.id);

    expect(
      (
        await suite.api('POST', `/api/v1/questions/${q.id}/answer`, {
          key: t.key,
          body: { answerText: 'At 3', answeredByExternalId: 'amy' },
        })
      ).status,
    ).toBe(403);
    const answered = await suite.api('POST', `/api/v1/questions/${q.id}/answer`, {
      key: t.key,
      body: { answerText: 'At 3', answeredByExternalId: 'host' },
    });
    expect(answered.body).toMatchObject({
      status: 'ANSWERED',
      answerText: 'At 3',
      answeredByExternalId: 'host',
      answeredAt: expect.any(String),
    });
    expect(
      (
        await suite.api('POST', `/api/v1/questions/${q.id}/upvote`, {
          key: t.key,
          body: { voterExternalId: 'voter-29' },
        })
      ).status,
    ).toBe(409);
    const dismissed = await suite.api('POST', `/api/v1/questions/${second.id}/dismiss`, {
      key: t.key,
      body: { actorExternalId: 'host' },
    });
    expect(dismissed.body).toMatchObject({ status: 'DISMISSED', dismissedByExternalId: 'host' });
    expect(
      (
        await suite.api('POST', `/api/v1/questions/${second.id}/dismiss`, {
          key: t.key,
          body: { actorExternalId: 'host' },
        })
      ).status,
    ).toBe(409);
    expect((await suite.api('POST', `/api/v1/questions/${second.id}/dismiss`, { key: t.key, body: {} })).status).toBe(
      400,
    );
    const live = suite.media.callsTo('SendData').filter((c) => c.body.topic === 'convene.questions');
    expect(JSON.parse(Buffer.from(live.at(-1)!.body.data, 'base64').toString())).toMatchObject({
      type: 'question.updated',
      question: { id: second.id, status: 'DISMISSED' },
    });
  });

  it('hosts and moderators answer and dismiss with their participant token; attendees 403; another room 404', async () => {
    const ask = async (text: string) =>
      (await suite.api('POST', '/api/v1/questions/public', { bearer: tokens.bob, body: { text } })).body;
    const status = async (id: string) => (await db().question.findUniqueOrThrow({ where: { id } })).status;
    const [q1, q2, q3] = [await ask('Is lunch provided?'), await ask('Recording?'), await ask('Off topic')];

    // Attendees are refused, also when their token's metadata claims HOST: our database decides.
    await db().participant.updateMany({
      where: { roomId: room.id, externalUserId: 'amy' },
      data: { externalRole: 'HOST' },
    });
    for (const who of ['amy', 'bob']) {
      const answer = await suite.api('POST', `/api/v1/questions/public/${q1.id}/answer`, {
        bearer: tokens[who],
        body: { answerText: 'Yes' },
      });
      expect([answer.status, answer.body.error.code]).toEqual([403, 'FORBIDDEN']);
      const dismiss = await suite.api('POST', `/api/v1/questions/public/${q1.id}/dismiss`, { bearer: tokens[who] });
      expect([dismiss.status, dismiss.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect(await status(q1.id)).toBe('OPEN');
    expect(
      (await suite.api('POST', `/api/v1/questions/public/${q1.id}/answer`, { body: { answerText: 'Yes' } })).status,
    ).toBe(401);
    expect(
      (
        await suite.api('POST', `/api/v1/questions/public/${q1.id}/answer`, {
          bearer: tokens.host,
          body: { answerText: '   ' },
        })
      ).status,
    ).toBe(400);

    const answered = await suite.api('POST', `/api/v1/questions/public/${q1.id}/answer`, {
      bearer: tokens.host,
      body: { answerText: 'Yes, at noon' },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      id: q1.id,
      status: 'ANSWERED',
      answerText: 'Yes, at noon',
      answeredByExternalId: 'host',
      answeredAt: expect.any(String),
    });
    expect(await db().question.findUniqueOrThrow({ where: { id: q1.id } })).toMatchObject({
      status: 'ANSWERED',
      answerText: 'Yes, at noon',
      answeredByExternalId: 'host',
    });
    const live = () => {
      const sent = suite.media.callsTo('SendData').filter((c) => c.body.topic === 'convene.questions');
      return JSON.parse(Buffer.from(sent.at(-1)!.body.data, 'base64').toString());
    };
    expect(live()).toMatchObject({
      type: 'question.updated',
      question: { id: q1.id, status: 'ANSWERED', answerText: 'Yes, at noon' },
    });
    expect(
      (
        await suite.api('POST', `/api/v1/questions/public/${q1.id}/answer`, {
          bearer: tokens.host,
          body: { answerText: 'Again' },
        })
      ).status,
    ).toBe(409);

    // The answer text is optional ("answered live"); a moderator may act too.
    const mod = (
      await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
        key: t.key,
        body: { externalUserId: 'mo', displayName: 'Mo', role: 'MODERATOR' },
      })
    ).body.token;
    const live2 = await suite.api('POST', `/api/v1/questions/public/${q2.id}/answer`, { bearer: mod });
    expect(live2.status).toBe(200);
    expect(live2.body).toMatchObject({ status: 'ANSWERED', answerText: null, answeredByExternalId: 'mo' });

    const dismissed = await suite.api('POST', `/api/v1/questions/public/${q3.id}/dismiss`, { bearer: tokens.host });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      id: q3.id,
      status: 'DISMISSED',
      dismissedByExternalId: 'host',
      dismissedAt: expect.any(String),
    });
    expect(await status(q3.id)).toBe('DISMISSED');
    expect(live()).toMatchObject({ type: 'question.updated', question: { id: q3.id, status: 'DISMISSED' } });
    expect((await suite.api('POST', `/api/v1/questions/public/${q3.id}/dismiss`, { bearer: tokens.host })).status).toBe(
      409,
    );
    // An answered question may be dismissed too.
    expect((await suite.api('POST', `/api/v1/questions/public/${q1.id}/dismiss`, { bearer: mod })).body).toMatchObject({
      status: 'DISMISSED',
      dismissedByExternalId: 'mo',
    });

    // Another room's question is 404 through this token, even for someone who hosts both rooms.
    const otherRoom = await roomHostedByHost();
    const foreign = (
      await suite.api('POST', '/api/v1/questions', {
        key: t.key,
        body: { roomId: otherRoom.id, text: 'Elsewhere?', askerExternalId: 'host' },
      })
    ).body;
    const foreignAnswer = await suite.api('POST', `/api/v1/questions/public/${foreign.id}/answer`, {
      bearer: tokens.host,
      body: { answerText: 'No' },
    });
    expect([foreignAnswer.status, foreignAnswer.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(
      (await suite.api('POST', `/api/v1/questions/public/${foreign.id}/dismiss`, { bearer: tokens.host })).status,
    ).toBe(404);
    expect(await status(foreign.id)).toBe('OPEN');
  });

  it('only participants ask; another tenant sees 404', async () => {
    expect(
      (
        await suite.api('POST', '/api/v1/questions', {
          key: t.key,
          body: { roomId: room.id, text: 'Hi', askerExternalId: 'stranger' },
        })
      ).status,
    ).toBe(403);
    const q = (
      await suite.api('POST', '/api/v1/questions', {
        key: t.key,
        body: { roomId: room.id, text: 'Hi', askerExternalId: 'bob' },
      })
    ).body;
    expect((await suite.api('GET', `/api/v1/questions/${q.id}`, { key: other.key })).status).toBe(404);
    expect(
      (
        await suite.api('POST', `/api/v1/questions/${q.id}/dismiss`, {
          key: other.key,
          body: { actorExternalId: 'host' },
        })
      ).status,
    ).toBe(404);
    expect((await suite.api('GET', `/api/v1/questions?roomId=${room.id}`, { key: other.key })).status).toBe(404);
  });
});
