/**
 * Presence across a move to a breakout and back, from the media layer's webhooks: a move sends
 * participant_left from the room left and participant_joined from the room entered, for the same
 * connection, and the two can arrive in either order. The participant keeps their seat in the
 * main room throughout (CONNECTED, with the breakout named), the tenant hears of no new arrival,
 * and only a left from the room they are in now ends their presence.
 */
import { beforeAll, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
let breakout: { id: string; mediaRoomName: string };
let bob: { id: string; mediaIdentity: string };

const T0 = Math.floor(Date.now() / 1000) - 3600;
const hook = () => `${suite.app.baseUrl}/api/media/webhook`;

async function send(id: string, event: string, mediaRoomName: string, at: number) {
  const res = await suite.media.sendWebhook(hook(), {
    id,
    event,
    createdAt: String(T0 + at),
    room: { name: mediaRoomName, sid: `RM_${mediaRoomName}` },
    participant: { identity: bob.mediaIdentity, sid: 'PA_bob', joinedAt: String(T0 + 10) },
  });
  expect(res.status).toBe(200);
}

async function bobNow() {
  const p = await db().participant.findUniqueOrThrow({ where: { id: bob.id } });
  return { state: p.connectionState, breakoutId: p.breakoutId };
}

/** What the moderation API does first, before asking the media layer to move them. */
const moveRow = (breakoutId: string | null) => db().participant.update({ where: { id: bob.id }, data: { breakoutId } });

const joinedEvents = () =>
  db().event.count({
    where: { tenantId: t.tenant.id, name: 'participant.joined', data: { path: ['participantId'], equals: bob.id } },
  });

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u', name: 'Class' } }))
    .body;
  const host = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
    key: t.key,
    body: { externalUserId: 'u', displayName: 'Host', role: 'HOST' },
  });
  expect(host.status).toBe(200);
  const joined = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
    key: t.key,
    body: { externalUserId: 'bob', displayName: 'Bob' },
  });
  expect(joined.status).toBe(200);
  bob = joined.body.participant;
  const opened = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
    key: t.key,
    body: { name: 'Table 1', createdByExternalId: 'u' },
  });
  expect(opened.status).toBe(201);
  breakout = await db().breakout.findUniqueOrThrow({ where: { id: opened.body.id } });
  await send('EV_start', 'room_started', room.mediaRoomName, 0);
  await send('EV_j_main', 'participant_joined', room.mediaRoomName, 10);
  expect(await bobNow()).toEqual({ state: 'CONNECTED', breakoutId: null });
});

it('a move whose left arrives first, and one whose join arrives first, keep the seat; no second arrival', async () => {
  const arrivals = await joinedEvents();
  expect(arrivals).toBe(1);
  // The same join delivered again under a new webhook id: still one arrival.
  await send('EV_j_main_again', 'participant_joined', room.mediaRoomName, 11);
  expect(await joinedEvents()).toBe(arrivals);
  // To the breakout: the old room's left first.
  await moveRow(breakout.id);
  await send('EV_l_main_1', 'participant_left', room.mediaRoomName, 20);
  expect(await bobNow()).toEqual({ state: 'CONNECTED', breakoutId: breakout.id });
  await send('EV_j_break_1', 'participant_joined', breakout.mediaRoomName, 20);
  expect(await bobNow()).toEqual({ state: 'CONNECTED', breakoutId: breakout.id });
  // Back to the main room: the new room's join first.
  await moveRow(null);
  await send('EV_j_main_2', 'participant_joined', room.mediaRoomName, 30);
  expect(await bobNow()).toEqual({ state: 'CONNECTED', breakoutId: null });
  await send('EV_l_break_2', 'participant_left', breakout.mediaRoomName, 30);
  expect(await bobNow()).toEqual({ state: 'CONNECTED', breakoutId: null });
  expect(await joinedEvents()).toBe(arrivals);
  const listed = await suite.api('GET', `/api/v1/rooms/${room.id}/participants?connectionState=CONNECTED`, {
    key: t.key,
  });
  expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(bob.id);
});

it('leaving the call from inside a breakout ends the presence', async () => {
  await moveRow(breakout.id);
  await send('EV_l_main_3', 'participant_left', room.mediaRoomName, 40);
  await send('EV_j_break_3', 'participant_joined', breakout.mediaRoomName, 40);
  await send('EV_l_break_3', 'participant_left', breakout.mediaRoomName, 50);
  expect(await bobNow()).toEqual({ state: 'DISCONNECTED', breakoutId: breakout.id });
  const left = await db().event.count({
    where: { tenantId: t.tenant.id, name: 'participant.left', data: { path: ['participantId'], equals: bob.id } },
  });
  expect(left).toBe(1);
});
