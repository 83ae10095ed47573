import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, type JoinedPerson, joinPeople } from '../support/rooms';
import { db } from '@/lib/db';
import { HAND_ATTRIBUTE } from '@/lib/hand-attribute';

// Raised hands: a media-layer attribute only the server writes, through the participant-token API.
const suite = useSuite();
let room: { id: string; mediaRoomName: string };
let people: Record<string, JoinedPerson>;

let key: string;

beforeAll(async () => {
  const t = await seedTenant({ plan: 'growth' });
  key = t.key;
  room = await createRoom(suite, t.key, { createdByExternalId: 'host' });
  people = await joinPeople(suite, t.key, room.id, [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
    ['bob', 'ATTENDEE'],
  ]);
});

const attributes = (who: string) =>
  suite.media.rooms.get(room.mediaRoomName)!.participants.get(people[who].mediaIdentity)!.attributes;

describe('raised hands', () => {
  it('a participant raises and lowers their own hand; the time it went up orders the queue', async () => {
    // Not in the call yet: nothing to raise.
    const early = await suite.api('POST', '/api/v1/me/hand', { bearer: people.amy.token, body: { raised: true } });
    expect([early.status, early.body.error.code]).toEqual([409, 'INVALID_STATE']);
    for (const who of ['host', 'amy', 'bob']) {
      suite.media.addParticipant(room.mediaRoomName, { identity: people[who].mediaIdentity });
      await db().participant.update({ where: { id: people[who].id }, data: { connectionState: 'CONNECTED' } });
    }
    const up = await suite.api('POST', '/api/v1/me/hand', { bearer: people.amy.token, body: { raised: true } });
    expect(up.body).toMatchObject({ participantId: people.amy.id, raised: true });
    expect(attributes('amy')[HAND_ATTRIBUTE]).toBe(up.body.raisedAt);
    await suite.api('POST', '/api/v1/me/hand', { bearer: people.bob.token, body: { raised: true } });
    expect(attributes('bob')[HAND_ATTRIBUTE] >= attributes('amy')[HAND_ATTRIBUTE]).toBe(true);
    const down = await suite.api('POST', '/api/v1/me/hand', { bearer: people.bob.token, body: { raised: false } });
    expect(down.body).toEqual({ participantId: people.bob.id, raised: false, raisedAt: null });
    expect(attributes('bob')[HAND_ATTRIBUTE]).toBe('');
    const bad = await suite.api('POST', '/api/v1/me/hand', { bearer: people.bob.token, body: { raised: 'yes' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('a host lowers anyone’s hand; an attendee cannot', async () => {
    const refused = await suite.api('POST', `/api/v1/me/participants/${people.amy.id}/lower-hand`, {
      bearer: people.bob.token,
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(attributes('amy')[HAND_ATTRIBUTE]).not.toBe('');
    const lowered = await suite.api('POST', `/api/v1/me/participants/${people.amy.id}/lower-hand`, {
      bearer: people.host.token,
    });
    expect(lowered.body).toEqual({ participantId: people.amy.id, raised: false, raisedAt: null });
    expect(attributes('amy')[HAND_ATTRIBUTE]).toBe('');
  });

  it('where the tenant turned raise hand off, raising is refused and lowering still works', async () => {
    const up = await suite.api('POST', '/api/v1/me/hand', { bearer: people.amy.token, body: { raised: true } });
    expect(up.status, up.text).toBe(200);
    const off = await suite.api('PATCH', '/api/v1/tenant/branding', { key, body: { raiseHandEnabled: false } });
    expect(off.status, off.text).toBe(200);
    try {
      const refused = await suite.api('POST', '/api/v1/me/hand', { bearer: people.bob.token, body: { raised: true } });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'FEATURE_DISABLED']);
      expect(attributes('bob')[HAND_ATTRIBUTE] ?? '').toBe('');
      // A hand raised before the switch can still come down.
      const down = await suite.api('POST', '/api/v1/me/hand', { bearer: people.amy.token, body: { raised: false } });
      expect(down.body).toEqual({ participantId: people.amy.id, raised: false, raisedAt: null });
    } finally {
      await suite.api('PATCH', '/api/v1/tenant/branding', { key, body: { raiseHandEnabled: null } });
    }
  });

  it('in a breakout, the hand goes up in the breakout’s media room, where the person is', async () => {
    const created = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
      key,
      body: { name: 'Side', createdByExternalId: 'host' },
    });
    expect(created.status, created.text).toBe(201);
    const breakout = await db().breakout.findUniqueOrThrow({ where: { id: created.body.id } });
    await db().participant.update({ where: { id: people.bob.id }, data: { breakoutId: breakout.id } });
    suite.media.addParticipant(breakout.mediaRoomName, { identity: people.bob.mediaIdentity });
    const up = await suite.api('POST', '/api/v1/me/hand', { bearer: people.bob.token, body: { raised: true } });
    expect(up.status, up.text).toBe(200);
    const inBreakout = suite.media.rooms.get(breakout.mediaRoomName)!.participants.get(people.bob.mediaIdentity)!;
    expect(inBreakout.attributes[HAND_ATTRIBUTE]).toBe(up.body.raisedAt);
  });
});
