import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinRoom } from '../support/rooms';
import { db } from '@/lib/db';

// The participant-token endpoints behind the call UI's host controls.
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
const tokens: Record<string, string> = {};
const ids: Record<string, { id: string; mediaIdentity: string }> = {};

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  room = await createRoom(suite, t.key, { createdByExternalId: 'host', enableWaitingRoom: true });
  for (const [who, role] of [
    ['host', 'HOST'],
    ['mod', 'MODERATOR'],
  ] as const) {
    const j = await joinRoom(suite, t.key, room.id, { externalUserId: who, displayName: who, role });
    tokens[who] = j.token;
    ids[who] = j.participant;
  }
  // An attendee admitted once, so it holds a token.
  const parked = await joinRoom(suite, t.key, room.id, { externalUserId: 'amy', displayName: 'Amy' });
  await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${parked.participant.id}/approve`, {
    key: t.key,
    body: { actingExternalUserId: 'host' },
  });
  tokens.amy = (
    await suite.api('GET', `/api/v1/rooms/${room.id}/participants/${parked.participant.id}/admission`, { key: t.key })
  ).body.token;
  ids.amy = parked.participant;
});

describe('host controls with a participant token', () => {
  it('GET /me tells who the token is, from our records', async () => {
    const res = await suite.api('GET', '/api/v1/me', { bearer: tokens.amy });
    expect(res.body).toMatchObject({
      isModerator: false,
      participant: { externalUserId: 'amy', role: 'ATTENDEE' },
      room: { roomId: room.id, enableWaitingRoom: true, isLocked: false },
    });
    expect((await suite.api('GET', '/api/v1/me', { bearer: tokens.mod })).body.isModerator).toBe(true);
    expect((await suite.api('GET', '/api/v1/me')).status).toBe(401);
  });

  it('only hosts and moderators mute everyone, lock, and see or handle the waiting room', async () => {
    for (const [method, path, body] of [
      ['POST', '/api/v1/me/mute-all', undefined],
      ['POST', '/api/v1/me/lock', { locked: true }],
      ['GET', '/api/v1/me/waiting', undefined],
    ] as const) {
      const res = await suite.api(method, path, { bearer: tokens.amy, body });
      expect([path, res.status, res.body.error?.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    suite.media.addParticipant(room.mediaRoomName, {
      identity: ids.amy.mediaIdentity,
      tracks: [{ sid: 'TR_amy', type: 'AUDIO' }],
    });
    suite.media.addParticipant(room.mediaRoomName, {
      identity: ids.host.mediaIdentity,
      tracks: [{ sid: 'TR_host', type: 'AUDIO' }],
    });
    expect((await suite.api('POST', '/api/v1/me/mute-all', { bearer: tokens.mod })).body).toEqual({
      roomId: room.id,
      mutedTracks: 1,
    });
    expect((await suite.api('POST', '/api/v1/me/lock', { bearer: tokens.host, body: { locked: true } })).body).toEqual({
      roomId: room.id,
      isLocked: true,
    });
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).isLocked).toBe(true);
    await suite.api('POST', '/api/v1/me/lock', { bearer: tokens.host, body: { locked: false } });
    expect((await suite.api('POST', '/api/v1/me/lock', { bearer: tokens.host, body: { locked: 'yes' } })).status).toBe(
      400,
    );
  });

  it('a host admits and refuses people from the waiting room', async () => {
    const bob = (await joinRoom(suite, t.key, room.id, { externalUserId: 'bob', displayName: 'Bob' })).participant;
    const eve = (await joinRoom(suite, t.key, room.id, { externalUserId: 'eve', displayName: 'Eve' })).participant;
    const waiting = await suite.api('GET', '/api/v1/me/waiting', { bearer: tokens.host });
    expect(waiting.body.data.map((p: { displayName: string }) => p.displayName)).toEqual(['Bob', 'Eve']);
    expect((await suite.api('POST', `/api/v1/me/waiting/${bob.id}/admit`, { bearer: tokens.host })).body).toMatchObject(
      { isApproved: true, approvedBy: 'host' },
    );
    expect(
      (await suite.api('POST', `/api/v1/me/waiting/${eve.id}/deny`, { bearer: tokens.mod })).body.connectionState,
    ).toBe('DENIED');
    expect((await suite.api('POST', `/api/v1/me/waiting/${eve.id}/admit`, { bearer: tokens.amy })).status).toBe(403);
    expect((await suite.api('GET', '/api/v1/me/waiting', { bearer: tokens.host })).body.data).toEqual([]);
  });
});

describe('entry: what the call UI asks before it connects', () => {
  it('GET /me says open, full, locked (hosts pass), removed, denied or ended, with the join rules', async () => {
    const r = await createRoom(suite, t.key, { createdByExternalId: 'host', maxParticipants: 3 });
    const join = (who: string, role = 'ATTENDEE') =>
      joinRoom(suite, t.key, r.id, { externalUserId: who, displayName: who, role });
    const host = await join('host', 'HOST');
    const ann = await join('ann');
    const ben = await join('ben');
    // Removed and denied are answered 403, with one detail naming which.
    const entry = async (token: string) => {
      const res = await suite.api('GET', '/api/v1/me', { bearer: token });
      return res.status === 403 ? `403 ${res.body.error.details?.[0]?.message}` : res.body.entry;
    };
    expect(await entry(ann.token)).toBe('open'); // her token holds a seat

    // Her hold lapses (token older than 10 minutes, never connected): she needs a free seat again.
    await db().participant.update({
      where: { id: ann.participant.id },
      data: { tokenIssuedAt: new Date(Date.now() - 11 * 60_000) },
    });
    expect(await entry(ann.token)).toBe('open'); // host and ben hold 2 of 3
    const cat = await join('cat');
    expect(await entry(ann.token)).toBe('full');
    await db().participant.update({ where: { id: ann.participant.id }, data: { connectionState: 'CONNECTED' } });
    expect(await entry(ann.token)).toBe('open'); // already in
    await db().participant.update({ where: { id: ann.participant.id }, data: { connectionState: 'PENDING' } });

    expect((await suite.api('PATCH', `/api/v1/rooms/${r.id}`, { key: t.key, body: { isLocked: true } })).status).toBe(
      200,
    );
    expect(await entry(ann.token)).toBe('locked'); // no seat held: the lock stops her
    expect(await entry(ben.token)).toBe('open'); // let in before the lock, seat still held
    await db().participant.update({
      where: { id: host.participant.id },
      data: { tokenIssuedAt: new Date(Date.now() - 11 * 60_000) },
    });
    expect(await entry(host.token)).toBe('open'); // no seat held either, but hosts pass a lock (ben and cat hold 2 of 3)
    await suite.api('PATCH', `/api/v1/rooms/${r.id}`, { key: t.key, body: { isLocked: false } });

    expect(
      (
        await suite.api('POST', `/api/v1/rooms/${r.id}/participants/${ben.participant.id}/remove`, {
          key: t.key,
          body: {},
        })
      ).status,
    ).toBe(200);
    const removed = await suite.api('GET', '/api/v1/me', { bearer: ben.token });
    expect([removed.status, removed.body.error.code, removed.body.error.details]).toEqual([
      403,
      'FORBIDDEN',
      [{ field: 'entry', message: 'removed' }],
    ]);
    // A removed participant's token does nothing else either.
    expect((await suite.api('GET', '/api/v1/me/waiting', { bearer: ben.token })).status).toBe(403);

    // A removed host moderates nothing any more.
    expect(
      (
        await suite.api('POST', `/api/v1/rooms/${r.id}/participants/${host.participant.id}/remove`, {
          key: t.key,
          body: {},
        })
      ).status,
    ).toBe(200);
    expect(await entry(host.token)).toBe('403 removed');
    expect((await suite.api('POST', '/api/v1/me/mute-all', { bearer: host.token, body: {} })).status).toBe(403);

    // Refused from the waiting room (e.g. parked again on a later join, holding an earlier token): "denied", not "removed".
    await db().participant.update({ where: { id: ann.participant.id }, data: { connectionState: 'DENIED' } });
    expect(await entry(ann.token)).toBe('403 denied');

    expect((await suite.api('POST', `/api/v1/rooms/${r.id}/end`, { key: t.key })).status).toBe(200);
    expect(await entry(cat.token)).toBe('ended');
  });
});
