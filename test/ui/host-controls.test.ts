import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

// The participant-token endpoints behind the call UI's host controls.
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
const tokens: Record<string, string> = {};
const ids: Record<string, { id: string; mediaIdentity: string }> = {};

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host', enableWaitingRoom: true } })).body;
  for (const [who, role] of [['host', 'HOST'], ['mod', 'MODERATOR']] as const) {
    const j = (await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: t.key, body: { externalUserId: who, displayName: who, role } })).body;
    tokens[who] = j.token;
    ids[who] = j.participant;
  }
  // An attendee admitted once, so it holds a token.
  const parked = (await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: t.key, body: { externalUserId: 'amy', displayName: 'Amy' } })).body;
  await suite.api('POST', `/api/v1/rooms/${room.id}/participants/${parked.participant.id}/approve`, { key: t.key, body: { actingExternalUserId: 'host' } });
  tokens.amy = (await suite.api('GET', `/api/v1/rooms/${room.id}/participants/${parked.participant.id}/admission`, { key: t.key })).body.token;
  ids.amy = parked.participant;
});

describe('host controls with a participant token', () => {
  it('GET /me tells who the token is, from our records', async () => {
    const res = await suite.api('GET', '/api/v1/me', { bearer: tokens.amy });
    expect(res.body).toMatchObject({ isModerator: false, participant: { externalUserId: 'amy', role: 'ATTENDEE' }, room: { roomId: room.id, enableWaitingRoom: true, isLocked: false } });
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
    suite.media.addParticipant(room.mediaRoomName, { identity: ids.amy.mediaIdentity, tracks: [{ sid: 'TR_amy', type: 'AUDIO' }] });
    suite.media.addParticipant(room.mediaRoomName, { identity: ids.host.mediaIdentity, tracks: [{ sid: 'TR_host', type: 'AUDIO' }] });
    expect((await suite.api('POST', '/api/v1/me/mute-all', { bearer: tokens.mod })).body).toEqual({ roomId: room.id, mutedTracks: 1 });
    expect((await suite.api('POST', '/api/v1/me/lock', { bearer: tokens.host, body: { locked: true } })).body).toEqual({ roomId: room.id, isLocked: true });
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).isLocked).toBe(true);
    await suite.api('POST', '/api/v1/me/lock', { bearer: tokens.host, body: { locked: false } });
    expect((await suite.api('POST', '/api/v1/me/lock', { bearer: tokens.host, body: { locked: 'yes' } })).status).toBe(400);
  });

  it('a host admits and refuses people from the waiting room', async () => {
    const bob = (await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: t.key, body: { externalUserId: 'bob', displayName: 'Bob' } })).body.participant;
    const eve = (await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: t.key, body: { externalUserId: 'eve', displayName: 'Eve' } })).body.participant;
    const waiting = await suite.api('GET', '/api/v1/me/waiting', { bearer: tokens.host });
    expect(waiting.body.data.map((p: { displayName: string }) => p.displayName)).toEqual(['Bob', 'Eve']);
    expect((await suite.api('POST', `/api/v1/me/waiting/${bob.id}/admit`, { bearer: tokens.host })).body).toMatchObject({ isApproved: true, approvedBy: 'host' });
    expect((await suite.api('POST', `/api/v1/me/waiting/${eve.id}/deny`, { bearer: tokens.mod })).body.connectionState).toBe('DENIED');
    expect((await suite.api('POST', `/api/v1/me/waiting/${eve.id}/admit`, { bearer: tokens.amy })).status).toBe(403);
    expect((await suite.api('GET', '/api/v1/me/waiting', { bearer: tokens.host })).body.data).toEqual([]);
  });
});
