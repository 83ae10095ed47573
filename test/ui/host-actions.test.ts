import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, type JoinedPerson, joinPeople } from '../support/rooms';
import { db } from '@/lib/db';

// The participant-token endpoints behind the People panel's per-person host actions and "End meeting for everyone".
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
let people: Record<string, JoinedPerson>;

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  room = await createRoom(suite, t.key, { createdByExternalId: 'host' });
  people = await joinPeople(suite, t.key, room.id, [
    ['host', 'HOST'],
    ['mod', 'MODERATOR'],
    ['amy', 'ATTENDEE'],
    ['bob', 'ATTENDEE'],
  ]);
  await db().participant.updateMany({
    where: { id: { in: Object.values(people).map((p) => p.id) } },
    data: { connectionState: 'CONNECTED' },
  });
});

const as = (who: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  suite.api(method, `/api/v1/me${path}`, { bearer: people[who].token, body });

describe('per-person host actions with a participant token', () => {
  it('only hosts and moderators read the roster or act on someone', async () => {
    for (const [method, path, body] of [
      ['GET', '/participants', undefined],
      ['POST', `/participants/${people.bob.id}/mute`, { source: 'microphone' }],
      ['POST', `/participants/${people.bob.id}/remove`, undefined],
      ['POST', `/participants/${people.bob.id}/role`, { role: 'MODERATOR' }],
      ['POST', `/participants/${people.bob.id}/move`, { breakoutId: 'nope' }],
      ['POST', `/participants/${people.bob.id}/lower-hand`, undefined],
      ['POST', '/end', undefined],
    ] as const) {
      const res = await as('amy', method, path, body);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    const roster = await as('mod', 'GET', '/participants');
    expect(roster.body.participants.map((p: { displayName: string }) => p.displayName)).toEqual([
      'amy',
      'bob',
      'host',
      'mod',
    ]);
    expect(roster.body.participants[0]).toEqual({
      id: people.amy.id,
      mediaIdentity: people.amy.mediaIdentity,
      displayName: 'amy',
      role: 'ATTENDEE',
    });
  });

  it('mutes one person’s microphone or camera in the media layer and tells only them why', async () => {
    suite.media.addParticipant(room.mediaRoomName, {
      identity: people.amy.mediaIdentity,
      tracks: [
        { sid: 'TR_amy_mic', type: 'AUDIO' },
        { sid: 'TR_amy_cam', type: 'VIDEO' },
      ],
    });
    const mic = await as('host', 'POST', `/participants/${people.amy.id}/mute`, { source: 'microphone' });
    expect(mic.body).toEqual({ participantId: people.amy.id, mutedTracks: 1 });
    expect(suite.media.callsTo('MutePublishedTrack').map((c) => c.body)).toEqual([
      expect.objectContaining({ identity: people.amy.mediaIdentity, trackSid: 'TR_amy_mic', muted: true }),
    ]);
    const told = suite.media.callsTo('SendData').at(-1)!.body as { topic: string; destinationIdentities: string[] };
    expect(told).toMatchObject({ topic: 'convene.host', destinationIdentities: [people.amy.mediaIdentity] });
    const cam = await as('mod', 'POST', `/participants/${people.amy.id}/mute`, { source: 'camera' });
    expect(cam.body.mutedTracks).toBe(1);
    // Already muted: nothing to do, nobody told again.
    const sent = suite.media.callsTo('SendData').length;
    expect(
      (await as('host', 'POST', `/participants/${people.amy.id}/mute`, { source: 'camera' })).body.mutedTracks,
    ).toBe(0);
    expect(suite.media.callsTo('SendData').length).toBe(sent);
    const bad = await as('host', 'POST', `/participants/${people.amy.id}/mute`, { source: 'screen' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('changes roles: a moderator makes co-hosts but never a host, and cannot act on a host or on themselves', async () => {
    suite.media.addParticipant(room.mediaRoomName, { identity: people.bob.mediaIdentity });
    const made = await as('mod', 'POST', `/participants/${people.bob.id}/role`, { role: 'MODERATOR' });
    expect([made.status, made.body.role]).toEqual([200, 'MODERATOR']);
    expect((await suite.api('GET', '/api/v1/me', { bearer: people.bob.token })).body.isModerator).toBe(true);
    // Everyone's call learns the new role from the participant's metadata.
    const pushed = suite.media.callsTo('UpdateParticipant').at(-1)!.body as { metadata: string };
    expect(JSON.parse(pushed.metadata).role).toBe('MODERATOR');
    const host = await as('mod', 'POST', `/participants/${people.bob.id}/role`, { role: 'HOST' });
    expect([host.status, host.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await as('mod', 'POST', `/participants/${people.host.id}/remove`)).status).toBe(403);
    expect((await as('mod', 'POST', `/participants/${people.mod.id}/remove`)).body.error.code).toBe('INVALID_STATE');
    expect((await as('host', 'POST', `/participants/${people.bob.id}/role`, { role: 'ATTENDEE' })).body.role).toBe(
      'ATTENDEE',
    );
    expect((await as('host', 'POST', '/participants/nope/role', { role: 'ATTENDEE' })).status).toBe(404);
  });

  it('moves someone to an open breakout and removes someone for good', async () => {
    const breakout = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
      key: t.key,
      body: { name: 'Side', createdByExternalId: 'host' },
    });
    expect((await as('host', 'GET', '/participants')).body.breakouts).toEqual([{ id: breakout.body.id, name: 'Side' }]);
    // Bad input and ids that are not this room's: refused, nothing moved.
    const badRole = await as('host', 'POST', `/participants/${people.bob.id}/role`, { role: 'OWNER' });
    expect([badRole.status, badRole.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const noBreakout = await as('host', 'POST', `/participants/${people.bob.id}/move`, { breakoutId: 'nope' });
    expect([noBreakout.status, noBreakout.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const noOne = await as('host', 'POST', '/participants/nobody/mute', { source: 'microphone' });
    expect([noOne.status, noOne.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const elsewhere = await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'host' } });
    const stranger = await suite.api('POST', `/api/v1/rooms/${elsewhere.body.id}/join`, {
      key: t.key,
      body: { externalUserId: 'stranger', displayName: 'stranger' },
    });
    const notHere = await as('host', 'POST', `/participants/${stranger.body.participant.id}/remove`);
    expect([notHere.status, notHere.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await db().participant.findUniqueOrThrow({ where: { id: people.bob.id } })).breakoutId).toBeNull();
    const moved = await as('host', 'POST', `/participants/${people.bob.id}/move`, { breakoutId: breakout.body.id });
    expect([moved.status, moved.body.participant.breakoutId]).toEqual([200, breakout.body.id]);
    // In a breakout: no longer in the main room's roster.
    const names = (await as('host', 'GET', '/participants')).body.participants.map(
      (p: { displayName: string }) => p.displayName,
    );
    expect(names).not.toContain('bob');

    const removed = await as('host', 'POST', `/participants/${people.amy.id}/remove`);
    expect([removed.status, removed.body.connectionState]).toEqual([200, 'REMOVED']);
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(people.amy.mediaIdentity)).toBe(false);
    const me = await suite.api('GET', '/api/v1/me', { bearer: people.amy.token });
    expect([me.status, me.body.error.details]).toEqual([403, [{ field: 'entry', message: 'removed' }]]);
  });

  it('ends the meeting for everyone', async () => {
    const ended = await as('mod', 'POST', '/end');
    expect([ended.status, ended.body.status]).toEqual([200, 'ENDED']);
    expect((await suite.api('GET', '/api/v1/me', { bearer: people.host.token })).body.entry).toBe('ended');
  });
});
