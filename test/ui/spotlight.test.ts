import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, type JoinedPerson, joinPeople } from '../support/rooms';
import { db } from '@/lib/db';
import { readSpotlight, SPOTLIGHT_ATTRIBUTE } from '@/lib/spotlight-attribute';

// Spotlight for everyone: an attribute only the server writes, on the moderator's own participant.
const suite = useSuite();
let room: { id: string; mediaRoomName: string };
let people: Record<string, JoinedPerson>;

beforeAll(async () => {
  const t = await seedTenant({ plan: 'growth' });
  room = await createRoom(suite, t.key, { createdByExternalId: 'host' });
  people = await joinPeople(suite, t.key, room.id, [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
  ]);
});

const attributes = (who: string) =>
  suite.media.rooms.get(room.mediaRoomName)!.participants.get(people[who].mediaIdentity)!.attributes;
const spotlight = (who: string, participantId: string | null | number) =>
  suite.api('POST', '/api/v1/me/spotlight', { bearer: people[who].token, body: { participantId } });

describe('spotlight', () => {
  it('a host spotlights someone and clears it; the value sits on the host’s own participant', async () => {
    const early = await spotlight('host', people.amy.id);
    expect([early.status, early.body.error.code]).toEqual([409, 'INVALID_STATE']);
    for (const who of ['host', 'amy']) {
      suite.media.addParticipant(room.mediaRoomName, { identity: people[who].mediaIdentity });
      await db().participant.update({ where: { id: people[who].id }, data: { connectionState: 'CONNECTED' } });
    }
    const on = await spotlight('host', people.amy.id);
    expect(on.status).toBe(200);
    expect(on.body.participantId).toBe(people.amy.id);
    expect(readSpotlight(attributes('host')[SPOTLIGHT_ATTRIBUTE])).toEqual({
      identity: people.amy.mediaIdentity,
      at: on.body.spotlightedAt,
    });
    expect(attributes('amy')[SPOTLIGHT_ATTRIBUTE]).toBeUndefined();
    const off = await spotlight('host', null);
    expect(off.body.participantId).toBeNull();
    expect(readSpotlight(attributes('host')[SPOTLIGHT_ATTRIBUTE])).toEqual({
      identity: null,
      at: off.body.spotlightedAt,
    });
  });

  it('an attendee cannot spotlight; bad input and unknown people are refused', async () => {
    const refused = await spotlight('amy', people.amy.id);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(attributes('amy')[SPOTLIGHT_ATTRIBUTE]).toBeUndefined();
    const bad = await spotlight('host', 42);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await spotlight('host', 'no-such-participant');
    expect(unknown.status).toBe(404);
  });

  it('the call reads only well-formed values', () => {
    for (const raw of [undefined, '', 'nope', '{}', '{"identity":5,"at":"x"}', '{"identity":"a","at":"yesterday"}'])
      expect(readSpotlight(raw)).toBeNull();
    expect(readSpotlight('{"identity":null,"at":"2026-01-01T00:00:00.000Z"}')).toEqual({
      identity: null,
      at: '2026-01-01T00:00:00.000Z',
    });
  });
});
