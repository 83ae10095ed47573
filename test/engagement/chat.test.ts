/**
 * Chat through the API: participant-token send and history (after a rejoin too), the live relay on
 * the data channel, direct messages, limits, enableChat / canPublishData / E2EE / removed
 * participants refused, tenant-key export and delete, retention.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';
import { pruneChat } from '@/lib/domain/chat';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
const tokens: Record<string, string> = {};
const people: Record<string, { id: string; mediaIdentity: string }> = {};

async function join(roomId: string, who: string, role = 'ATTENDEE') {
  const res = await suite.api('POST', `/api/v1/rooms/${roomId}/join`, {
    key: t.key,
    body: { externalUserId: who, displayName: who.toUpperCase(), role },
  });
  expect(res.status).toBe(200);
  return res.body as { token: string; participant: { id: string; mediaIdentity: string } };
}
const send = (who: string, body: Record<string, unknown>) =>
  suite.api('POST', '/api/v1/chat/messages', { bearer: tokens[who], body });
const history = (who: string, query = '') => suite.api('GET', `/api/v1/chat/messages${query}`, { bearer: tokens[who] });
/** Participant-token endpoints also have a per-participant budget per second: let that budget refill. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1100));
const relayed = () =>
  suite.media
    .callsTo('SendData')
    .filter((c) => c.body.topic === 'convene.chat')
    .map((c) => ({
      payload: JSON.parse(Buffer.from(c.body.data, 'base64').toString()),
      to: c.body.destinationIdentities ?? [],
    }));

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  other = await seedTenant();
  room = (
    await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host', name: 'Chatty' } })
  ).body;
  for (const [who, role] of [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
    ['bob', 'ATTENDEE'],
    ['eve', 'ATTENDEE'],
    ['spammer', 'ATTENDEE'],
  ] as const) {
    const joined = await join(room.id, who, role);
    tokens[who] = joined.token;
    people[who] = joined.participant;
  }
  suite.media.addParticipant(room.mediaRoomName, { identity: 'someone' }); // the media room exists, so relays are sent
});

describe('chat', () => {
  it('a participant sends to the room: stored, returned, relayed once on convene.chat; markup stays text', async () => {
    const res = await send('amy', { text: '  <b>hello</b> & <script>alert(1)</script>  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      roomId: room.id,
      senderExternalUserId: 'amy',
      senderName: 'AMY',
      senderParticipantId: people.amy.id,
      toParticipantId: null,
      toExternalUserId: null,
      text: '<b>hello</b> & <script>alert(1)</script>',
    });
    const stored = await db().chatMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.text).toBe('<b>hello</b> & <script>alert(1)</script>');
    const live = relayed().filter((r) => r.payload.message.id === res.body.id);
    expect(live).toHaveLength(1);
    expect(live[0].payload).toEqual({ type: 'chat.message', message: res.body });
    expect(live[0].to).toEqual([]);
  });

  it('history after a rejoin: the latest messages, then only what follows the cursor', async () => {
    await send('bob', { text: 'second' });
    await send('host', { text: 'third' });
    const first = await history('amy');
    expect(first.status).toBe(200);
    expect(first.body.data.map((m: { text: string }) => m.text)).toEqual([
      '<b>hello</b> & <script>alert(1)</script>',
      'second',
      'third',
    ]);
    expect(first.body.hasMore).toBe(false);

    // amy reloads: a new token from a new join, same participant; the conversation is there.
    tokens.amy = (await join(room.id, 'amy')).token;
    const again = await history('amy');
    expect(again.body.data.map((m: { text: string }) => m.text)).toEqual([
      '<b>hello</b> & <script>alert(1)</script>',
      'second',
      'third',
    ]);
    expect((await history('amy', `?cursor=${again.body.nextCursor}`)).body).toEqual({
      data: [],
      nextCursor: again.body.nextCursor,
      hasMore: false,
    });

    await send('bob', { text: 'fourth' });
    await send('bob', { text: 'fifth' });
    const since = await history('amy', `?cursor=${again.body.nextCursor}&limit=1`);
    expect(since.body.data.map((m: { text: string }) => m.text)).toEqual(['fourth']);
    expect(since.body.hasMore).toBe(true);
    const rest = await history('amy', `?cursor=${since.body.nextCursor}`);
    expect(rest.body.data.map((m: { text: string }) => m.text)).toEqual(['fifth']);
    expect((await history('amy', '?limit=2')).body.data.map((m: { text: string }) => m.text)).toEqual([
      'fourth',
      'fifth',
    ]);
    expect((await history('amy', '?cursor=garbage')).status).toBe(400);
  });

  it('a retried send with the same Idempotency-Key stores one message', async () => {
    const once = () =>
      suite.api('POST', '/api/v1/chat/messages', {
        bearer: tokens.host,
        body: { text: 'retry-safe' },
        headers: { 'idempotency-key': 'chat-retry-1' },
      });
    const [first, second] = [await once(), await once()];
    expect(first.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await db().chatMessage.count({ where: { text: 'retry-safe' } })).toBe(1);
  });

  it('a direct message reaches its two participants only, in the relay and in history', async () => {
    await nextSecond();
    const dm = await send('bob', { text: 'psst', toExternalUserId: 'amy' });
    expect(dm.status).toBe(201);
    expect(dm.body).toMatchObject({ toParticipantId: people.amy.id, toExternalUserId: 'amy' });
    const live = relayed().find((r) => r.payload.message.id === dm.body.id)!;
    expect([...live.to].sort()).toEqual([people.amy.mediaIdentity, people.bob.mediaIdentity].sort());
    const texts = async (who: string) => (await history(who)).body.data.map((m: { text: string }) => m.text);
    expect(await texts('amy')).toContain('psst');
    expect(await texts('bob')).toContain('psst');
    expect(await texts('host')).not.toContain('psst');
    expect((await send('bob', { text: 'x', toExternalUserId: 'nobody' })).status).toBe(404);
    expect((await send('bob', { text: 'x', toExternalUserId: 'bob' })).status).toBe(400);
  });

  it('limits: empty, too long, NUL and unknown fields are 400; more than 10 in 10 s is 429 with Retry-After', async () => {
    await nextSecond();
    for (const body of [
      { text: '   ' },
      { text: 'x'.repeat(2001) },
      { text: 'a\u0000b' },
      { text: 'ok', extra: 1 },
      {},
    ]) {
      const res = await send('amy', body);
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await send('amy', { text: 'x'.repeat(2000) })).status).toBe(201);
    // Spread over three seconds, so the per-second limit never answers: the chat's own does.
    for (let i = 0; i < 10; i++) {
      if (i === 5) await nextSecond();
      expect((await send('spammer', { text: `m${i}` })).status).toBe(201);
    }
    await nextSecond();
    const limited = await send('spammer', { text: 'one too many' });
    expect([limited.status, limited.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(limited.body.error.message).toMatch(/at most 10 per 10 s/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await db().chatMessage.count({ where: { text: 'one too many' } })).toBe(0);
  });

  it('the limit is exact under concurrency: 25 sends at once, exactly 10 accepted', async () => {
    const burst = await join(room.id, 'burst');
    tokens.burst = burst.token;
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => send('burst', { text: `b${i}` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(await db().chatMessage.count({ where: { senderParticipantId: burst.participant.id } })).toBe(10);
  });

  it('canPublishData false, a removed participant and a missing token are refused; the tenant export sees everything', async () => {
    await nextSecond();
    await suite.api('PATCH', `/api/v1/rooms/${room.id}/participants/${people.eve.id}`, {
      key: t.key,
      body: { canPublishData: false },
    });
    const mute = await send('eve', { text: 'can I?' });
    expect([mute.status, mute.body.error.code]).toEqual([403, 'FORBIDDEN']);

    expect(
      (await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${people.bob.id}/remove`, { key: t.key })).status,
    ).toBe(200);
    const removed = await send('bob', { text: 'still here?' });
    expect([removed.status, removed.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await history('bob')).status).toBe(403);
    expect((await suite.api('POST', '/api/v1/chat/messages', { body: { text: 'hi' } })).status).toBe(401);

    const exported = await suite.api('GET', `/api/v1/rooms/${room.id}/chat`, { key: t.key });
    expect(exported.status).toBe(200);
    expect(exported.body.roomId).toBe(room.id);
    const texts = exported.body.messages.map((m: { text: string }) => m.text);
    expect(texts.slice(0, 5)).toEqual([
      '<b>hello</b> & <script>alert(1)</script>',
      'second',
      'third',
      'fourth',
      'fifth',
    ]);
    expect(texts).toContain('psst');
    expect(texts).not.toContain('can I?');
    expect((await suite.api('GET', `/api/v1/rooms/${room.id}/chat`, { key: other.key })).status).toBe(404);
    expect((await suite.api('DELETE', `/api/v1/rooms/${room.id}/chat`, { key: other.key })).status).toBe(404);
  });

  it('delete removes the room’s chat; retention deletes messages older than RETENTION_DAYS', async () => {
    await nextSecond();
    const before = await db().chatMessage.count({ where: { roomId: room.id } });
    const old = await db().chatMessage.findFirstOrThrow({ where: { roomId: room.id }, orderBy: { seq: 'asc' } });
    await db().chatMessage.update({
      where: { id: old.id },
      data: { createdAt: new Date(Date.now() - 31 * 86_400_000) },
    });
    expect(await pruneChat(new Date(), 30)).toBe(1);
    expect(await db().chatMessage.count({ where: { roomId: room.id } })).toBe(before - 1);

    const deleted = await suite.api('DELETE', `/api/v1/rooms/${room.id}/chat`, { key: t.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ roomId: room.id, deleted: before - 1 });
    expect((await suite.api('GET', `/api/v1/rooms/${room.id}/chat`, { key: t.key })).body.messages).toEqual([]);
    expect((await history('amy')).body.data).toEqual([]);
  });

  it('an end-to-end encrypted room stores no chat (FEATURE_DISABLED); so does a room without enableChat', async () => {
    const e2ee = (
      await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host', enableE2EE: true } })
    ).body;
    expect(e2ee.enableE2EE).toBe(true);
    tokens.secret = (await join(e2ee.id, 'amy')).token;
    const refused = await send('secret', { text: 'secret' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FEATURE_DISABLED']);
    expect(refused.body.error.message).toMatch(/end-to-end encrypted/);
    expect((await history('secret')).body.error.code).toBe('FEATURE_DISABLED');

    const quiet = (
      await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host', enableChat: false } })
    ).body;
    tokens.quiet = (await join(quiet.id, 'amy')).token;
    const off = await send('quiet', { text: 'hello?' });
    expect([off.status, off.body.error.code]).toEqual([403, 'FEATURE_DISABLED']);
    expect(await db().chatMessage.count({ where: { roomId: { in: [e2ee.id, quiet.id] } } })).toBe(0);
  });

  it('an ended room takes no new messages (409); the message carries the live session', async () => {
    const r = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host' } })).body;
    const joined = await join(r.id, 'amy');
    tokens.live = joined.token;
    const at = String(Math.floor(Date.now() / 1000));
    await suite.media.sendWebhook(`${suite.app.baseUrl}/api/media/webhook`, {
      event: 'participant_joined',
      createdAt: at,
      room: { name: r.mediaRoomName },
      participant: { identity: joined.participant.mediaIdentity, sid: 'PA_live', joinedAt: at },
    });
    const sent = await send('live', { text: 'during' });
    const [session] = (await suite.api('GET', `/api/v1/rooms/${r.id}/sessions`, { key: t.key })).body.data;
    expect(sent.body.sessionId).toBe(session.id);
    await suite.api('POST', `/api/v1/rooms/${r.id}/end`, { key: t.key });
    const after = await send('live', { text: 'after' });
    expect([after.status, after.body.error.code]).toEqual([409, 'INVALID_STATE']);
    expect(
      (await suite.api('GET', `/api/v1/rooms/${r.id}/chat?sessionId=${session.id}`, { key: t.key })).body.messages.map(
        (m: { text: string }) => m.text,
      ),
    ).toEqual(['during']);
  });
});
