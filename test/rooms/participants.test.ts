import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { WebSocket } from 'ws';
import { SignalResponse } from '@livekit/protocol';
import { db } from '@/lib/db';
import { reconcileRooms } from '@/lib/domain/lifecycle';
import { until } from '../support/until';

const suite = useSuite();
type Seeded = Awaited<ReturnType<typeof seedTenant>>;
let acme: Seeded;
let other: Seeded;

beforeAll(async () => {
  acme = await seedTenant({ name: 'Acme', plan: 'growth' });
  other = await seedTenant({ name: 'Other' });
});

const createRoom = async (body: Record<string, unknown> = {}) =>
  (await suite.api('POST', '/api/v1/rooms', { key: acme.key, body: { createdByExternalId: 'owner', ...body } })).body;
const join = (roomId: string, body: Record<string, unknown>) =>
  suite.api('POST', `/api/v1/rooms/${roomId}/join`, { key: acme.key, body: { displayName: 'Someone', ...body } });
const base = (roomId: string, pid: string) => `/api/v1/rooms/${roomId}/participants/${pid}`;

/** A room with a connected host and two connected attendees in the fake media layer. */
async function liveRoom(extra: Record<string, unknown> = {}) {
  const room = await createRoom(extra);
  const people: Record<string, { id: string; mediaIdentity: string }> = {};
  for (const [who, role] of [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
    ['bob', 'ATTENDEE'],
  ] as const) {
    const p = (await join(room.id, { externalUserId: who, role })).body.participant;
    await db().participant.update({
      where: { id: p.id },
      data: { connectionState: 'CONNECTED', joinedAt: new Date() },
    });
    suite.media.addParticipant(room.mediaRoomName, {
      identity: p.mediaIdentity,
      tracks: [
        { sid: `TR_${who}_a`, type: 'AUDIO' },
        { sid: `TR_${who}_v`, type: 'VIDEO' },
      ],
    });
    people[who] = p;
  }
  return { room, people };
}

describe('waiting room', () => {
  it('parks attendees, emits participant.waiting on the first park only, and admits on approval', async () => {
    const room = await createRoom({ enableWaitingRoom: true });
    const host = await join(room.id, { externalUserId: 'host', role: 'HOST' });
    expect(host.body.waitingForApproval).toBe(false);
    const parked = await join(room.id, { externalUserId: 'guest', displayName: 'Guest' });
    expect(parked.body).toMatchObject({
      token: null,
      joinUrl: null,
      mediaUrl: null,
      waitingForApproval: true,
      participant: { connectionState: 'WAITING', isApproved: false },
    });
    const again = await join(room.id, { externalUserId: 'guest', displayName: 'Guest' });
    expect(again.body.waitingForApproval).toBe(true);
    const waitingEvents = await db().event.findMany({
      where: { tenantId: acme.tenant.id, name: 'participant.waiting' },
    });
    const mine = waitingEvents.filter((e) => (e.data as { roomId: string }).roomId === room.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toEqual({
      roomId: room.id,
      participantId: parked.body.participant.id,
      externalUserId: 'guest',
    });

    const pid = parked.body.participant.id;
    const poll = await suite.api('GET', `${base(room.id, pid)}/admission`, { key: acme.key });
    expect(poll.body).toMatchObject({ status: 'waiting', token: null });

    const notModerator = await suite.api('POST', `${base(room.id, pid)}/approve`, {
      key: acme.key,
      body: { actingExternalUserId: 'guest' },
    });
    expect([notModerator.status, notModerator.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const approved = await suite.api('POST', `${base(room.id, pid)}/approve`, {
      key: acme.key,
      body: { actingExternalUserId: 'host' },
    });
    expect(approved.body).toMatchObject({ isApproved: true, approvedBy: 'host', connectionState: 'PENDING' });
    const twice = await suite.api('POST', `${base(room.id, pid)}/approve`, {
      key: acme.key,
      body: { actingExternalUserId: 'host' },
    });
    expect(twice.body.error.code).toBe('INVALID_STATE');

    const admitted = await suite.api('GET', `${base(room.id, pid)}/admission`, { key: acme.key });
    expect(admitted.body.status).toBe('approved');
    expect(admitted.body.token).toEqual(expect.any(String));
    expect(admitted.body.joinUrl).toContain('/join?token=');
    // Once approved, a rejoin goes straight in.
    expect((await join(room.id, { externalUserId: 'guest' })).body.waitingForApproval).toBe(false);
  });

  it('the waiting page polls with its admission secret, never a tenant key; a wrong secret is 404', async () => {
    const room = await createRoom({ enableWaitingRoom: true, name: 'Physics 101' });
    await join(room.id, { externalUserId: 'host', role: 'HOST' });
    const parked = await join(room.id, { externalUserId: 'g2' });
    const admission = new URL(parked.body.admissionUrl);
    expect(admission.pathname).toBe('/join/waiting');
    const secret = admission.hash.slice(1);
    expect(secret).toMatch(/^adm_/);
    const path = `${base(room.id, parked.body.participant.id)}/admission`;
    // The room's name, which the waiting page shows.
    expect((await suite.api('GET', path, { bearer: secret })).body).toMatchObject({
      status: 'waiting',
      roomName: 'Physics 101',
    });
    expect((await suite.api('GET', path, { bearer: 'adm_wrong' })).status).toBe(404);
    expect((await suite.api('GET', path)).status).toBe(404);
    expect((await suite.api('GET', path, { key: other.key })).status).toBe(404);
  });

  it('deny refuses the participant for good', async () => {
    const room = await createRoom({ enableWaitingRoom: true });
    await join(room.id, { externalUserId: 'host', role: 'MODERATOR' });
    const parked = await join(room.id, { externalUserId: 'g3' });
    const denied = await suite.api('POST', `${base(room.id, parked.body.participant.id)}/deny`, {
      key: acme.key,
      body: { actingExternalUserId: 'host' },
    });
    expect(denied.body.connectionState).toBe('DENIED');
    expect(
      (await suite.api('GET', `${base(room.id, parked.body.participant.id)}/admission`, { key: acme.key })).body.status,
    ).toBe('denied');
    // The waiting page, holding only the admission secret, learns it was refused (not "invalid link").
    const secret = new URL(parked.body.admissionUrl).hash.slice(1);
    const told = await suite.api('GET', `${base(room.id, parked.body.participant.id)}/admission`, { bearer: secret });
    expect(told.status).toBe(200);
    expect(told.body).toMatchObject({ status: 'denied', token: null, joinUrl: null });
    expect((await join(room.id, { externalUserId: 'g3' })).status).toBe(403);
  });

  it('approval respects the seat cap', async () => {
    const room = await createRoom({ enableWaitingRoom: true, maxParticipants: 1 });
    await join(room.id, { externalUserId: 'host', role: 'HOST' });
    const parked = await join(room.id, { externalUserId: 'g4' });
    const res = await suite.api('POST', `${base(room.id, parked.body.participant.id)}/approve`, {
      key: acme.key,
      body: { actingExternalUserId: 'host' },
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'ROOM_FULL']);
  });
});

describe('participants', () => {
  it('gets and lists participants; another tenant gets 404', async () => {
    const { room, people } = await liveRoom();
    const got = await suite.api('GET', base(room.id, people.amy.id), { key: acme.key });
    expect(got.body).toMatchObject({ id: people.amy.id, externalUserId: 'amy', connectionState: 'CONNECTED' });
    const list = await suite.api('GET', `/api/v1/rooms/${room.id}/participants?connectionState=CONNECTED`, {
      key: acme.key,
    });
    expect(list.body.data).toHaveLength(3);
    expect((await suite.api('GET', base(room.id, people.amy.id), { key: other.key })).status).toBe(404);
    expect(
      (await suite.api('PATCH', base(room.id, people.amy.id), { key: other.key, body: { canPublish: false } })).status,
    ).toBe(404);
    expect((await suite.api('POST', `${base(room.id, people.amy.id)}/remove`, { key: other.key })).status).toBe(404);
    expect((await suite.api('GET', base(room.id, 'nope'), { key: acme.key })).status).toBe(404);
  });

  it('PATCH changes role and permissions and pushes them to the media layer for a connected participant', async () => {
    const { room, people } = await liveRoom();
    const res = await suite.api('PATCH', base(room.id, people.amy.id), {
      key: acme.key,
      body: { role: 'MODERATOR', canPublish: false },
    });
    expect(res.body).toMatchObject({ role: 'MODERATOR', canPublish: false });
    const pushed = suite.media.callsTo('UpdateParticipant').at(-1)!.body;
    expect(pushed.identity).toBe(people.amy.mediaIdentity);
    expect(pushed.permission.canPublish ?? false).toBe(false);
    expect(JSON.parse(pushed.metadata).role).toBe('MODERATOR');
    expect(
      (await suite.api('PATCH', base(room.id, people.amy.id), { key: acme.key, body: { role: 'KING' } })).status,
    ).toBe(400);
  });

  it('PATCH with the media layer down is 502 and changes nothing', async () => {
    const { room, people } = await liveRoom();
    suite.media.failNext('UpdateParticipant');
    const res = await suite.api('PATCH', base(room.id, people.bob.id), { key: acme.key, body: { canPublish: false } });
    expect([res.status, res.body.error.code]).toEqual([502, 'MEDIA_LAYER_UNAVAILABLE']);
    expect((await db().participant.findUniqueOrThrow({ where: { id: people.bob.id } })).canPublish).toBe(true);
  });

  it('remove kicks the participant in the media layer and keeps them out', async () => {
    const { room, people } = await liveRoom();
    const res = await suite.api('POST', `${base(room.id, people.bob.id)}/remove`, { key: acme.key });
    expect(res.body.connectionState).toBe('REMOVED');
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(people.bob.mediaIdentity)).toBe(false);
    expect((await join(room.id, { externalUserId: 'bob' })).status).toBe(403);
  });

  it('remove reaches a participant who connected before its participant_joined arrived, and tolerates a media layer that never saw them', async () => {
    const room = await createRoom();
    const early = (await join(room.id, { externalUserId: 'early' })).body.participant;
    suite.media.addParticipant(room.mediaRoomName, { identity: early.mediaIdentity }); // connected; no webhook yet
    expect((await suite.api('POST', `${base(room.id, early.id)}/remove`, { key: acme.key })).body.connectionState).toBe(
      'REMOVED',
    );
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(early.mediaIdentity)).toBe(false);
    const never = (await join(room.id, { externalUserId: 'never' })).body.participant;
    suite.media.setDown(true);
    try {
      expect(
        (await suite.api('POST', `${base(room.id, never.id)}/remove`, { key: acme.key })).body.connectionState,
      ).toBe('REMOVED');
    } finally {
      suite.media.setDown(false);
    }
  });

  it('mute-all mutes non-moderators only, and only a host or moderator may do it', async () => {
    const { room } = await liveRoom();
    const refused = await suite.api('POST', `/api/v1/rooms/${room.id}/mute-all`, {
      key: acme.key,
      body: { actingExternalUserId: 'amy' },
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const stranger = await suite.api('POST', `/api/v1/rooms/${room.id}/mute-all`, {
      key: acme.key,
      body: { actingExternalUserId: 'nobody' },
    });
    expect(stranger.status).toBe(403);
    const res = await suite.api('POST', `/api/v1/rooms/${room.id}/mute-all`, {
      key: acme.key,
      body: { actingExternalUserId: 'host' },
    });
    expect(res.body).toEqual({ roomId: room.id, mutedTracks: 2 });
    const tracks = [...suite.media.rooms.get(room.mediaRoomName)!.participants.values()].flatMap((p) =>
      [...p.tracks.values()].map((t) => [t.sid, t.muted]),
    );
    expect(Object.fromEntries(tracks)).toMatchObject({
      TR_host_a: false,
      TR_amy_a: true,
      TR_bob_a: true,
      TR_amy_v: false,
    });
    expect((await suite.api('POST', `/api/v1/rooms/${room.id}/mute-all`, { key: acme.key, body: {} })).status).toBe(
      400,
    );
  });
});

describe('breakouts', () => {
  it('creates, lists, moves a participant into a breakout and closes it', async () => {
    const { room, people } = await liveRoom();
    const refused = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
      key: acme.key,
      body: { name: 'Group A', createdByExternalId: 'amy' },
    });
    expect(refused.status).toBe(403);
    const created = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
      key: acme.key,
      body: { name: 'Group A', createdByExternalId: 'host' },
    });
    expect(created.status).toBe(201);
    const breakout = created.body;
    expect(breakout).toMatchObject({ name: 'Group A', status: 'OPEN', roomId: room.id });
    expect((await suite.api('GET', `/api/v1/rooms/${room.id}/breakouts`, { key: acme.key })).body.data).toHaveLength(1);

    const move = (body: Record<string, unknown>) =>
      suite.api('POST', `/api/v1/rooms/${room.id}/breakouts/${breakout.id}/move`, { key: acme.key, body });
    expect((await move({ actingExternalUserId: 'bob', participantId: people.amy.id })).status).toBe(403);
    expect((await move({ actingExternalUserId: 'host', participantId: 'missing' })).status).toBe(404);
    const moved = await move({ actingExternalUserId: 'host', participantId: people.amy.id });
    expect(moved.body.participant.breakoutId).toBe(breakout.id);
    expect(suite.media.rooms.get(breakout.mediaRoomName)!.participants.has(people.amy.mediaIdentity)).toBe(true);
    expect(suite.media.callsTo('MoveParticipant').at(-1)!.body).toMatchObject({
      room: room.mediaRoomName,
      destinationRoom: breakout.mediaRoomName,
    });

    const closed = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts/${breakout.id}/close`, {
      key: acme.key,
      body: { actingExternalUserId: 'host' },
    });
    expect(closed.body.status).toBe('CLOSED');
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(people.amy.mediaIdentity)).toBe(true);
    expect((await db().participant.findUniqueOrThrow({ where: { id: people.amy.id } })).breakoutId).toBeNull();
    expect((await move({ actingExternalUserId: 'host', participantId: people.bob.id })).body.error.code).toBe(
      'INVALID_STATE',
    );
  });

  it('only a connected participant can be moved', async () => {
    const { room } = await liveRoom();
    const breakout = (
      await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
        key: acme.key,
        body: { name: 'B', createdByExternalId: 'host' },
      })
    ).body;
    const pending = (await join(room.id, { externalUserId: 'late' })).body.participant;
    const res = await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts/${breakout.id}/move`, {
      key: acme.key,
      body: { actingExternalUserId: 'host', participantId: pending.id },
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'INVALID_STATE']);
  });
});

describe('removal sticks: the media layer does not revoke tokens, so Convene removes again on join', () => {
  const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
  const stateOf = async (id: string) => (await db().participant.findUniqueOrThrow({ where: { id } })).connectionState;
  const joinedEvents = async (roomId: string) =>
    (await db().event.findMany({ where: { tenantId: acme.tenant.id, name: 'participant.joined' } })).filter(
      (e) => (e.data as { roomId: string }).roomId === roomId,
    ).length;
  /**
   * A raw signaling client (what any LiveKit SDK does first): resolves once the server answered
   * join. Like livekit-client, it closes its side when the server says leave (the server otherwise
   * holds the connection for its grace period, 5 s, which made this test wait 10 s).
   */
  const connectSignaling = async (token: string) => {
    const ws = new WebSocket(`${suite.media.url}/rtc?access_token=${token}`);
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      if (SignalResponse.fromBinary(new Uint8Array(data as Buffer)).message.case === 'leave') ws.close();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('message', (data) =>
        SignalResponse.fromBinary(new Uint8Array(data as Buffer)).message.case === 'join'
          ? resolve()
          : reject(new Error('no join response')),
      );
      ws.once('close', () => reject(new Error('closed before join')));
    });
    return ws;
  };

  it('a removed participant who reconnects with the old token is removed again and stays out', async () => {
    suite.media.setWebhookUrls([hook()]);
    try {
      const room = await createRoom();
      await join(room.id, { externalUserId: 'host', role: 'HOST' });
      const amy = (await join(room.id, { externalUserId: 'amy' })).body;
      const pid = amy.participant.id;
      const first = await connectSignaling(amy.token);
      await until(async () => ((await stateOf(pid)) === 'CONNECTED' ? true : undefined), 'amy connected');

      expect((await suite.api('POST', `${base(room.id, pid)}/remove`, { key: acme.key })).status).toBe(200);
      await until(() => (first.readyState === WebSocket.CLOSED ? true : undefined), 'the first connection closed');
      const closedConnection = async () =>
        (await db().sessionConnection.findMany({ where: { participantId: pid } })).map((c) => ({
          joinedAt: c.joinedAt,
          leftAt: c.leftAt,
        }));
      await until(
        async () => ((await closedConnection()).every((c) => c.leftAt) ? true : undefined),
        'the removal reported',
      );
      const attendanceBefore = await closedConnection();
      const joinedBefore = await joinedEvents(room.id);

      // The same token again: the media layer accepts it (as LiveKit would), Convene removes again.
      const again = await connectSignaling(amy.token);
      await until(() => (again.readyState === WebSocket.CLOSED ? true : undefined), 'the reconnection closed');
      expect(suite.media.rooms.get(room.mediaRoomName)?.participants.has(amy.participant.mediaIdentity)).toBeFalsy();
      await suite.media.webhooksIdle();

      expect(await stateOf(pid)).toBe('REMOVED');
      const me = await suite.api('GET', '/api/v1/me', { bearer: amy.token });
      expect([me.status, me.body.error.code, me.body.error.details]).toEqual([
        403,
        'FORBIDDEN',
        [{ field: 'entry', message: 'removed' }],
      ]);
      const chat = await suite.api('POST', '/api/v1/chat/messages', { bearer: amy.token, body: { text: 'back!' } });
      expect([chat.status, chat.body.error.code]).toEqual([403, 'FORBIDDEN']);
      const presence = await suite.api('GET', `/api/v1/rooms/${room.id}/presence`, { key: acme.key });
      expect(presence.body.participants.map((p: { externalUserId: string }) => p.externalUserId)).not.toContain('amy');
      expect(await closedConnection()).toEqual(attendanceBefore);
      expect(await joinedEvents(room.id)).toBe(joinedBefore);
      const rejoin = await join(room.id, { externalUserId: 'amy' });
      expect([rejoin.status, rejoin.body.error.code]).toEqual([403, 'FORBIDDEN']);
    } finally {
      suite.media.setWebhookUrls([]);
    }
  });

  it('the same through a participant_joined webhook as LiveKit Cloud sends it', async () => {
    const { room, people } = await liveRoom();
    expect((await suite.api('POST', `${base(room.id, people.bob.id)}/remove`, { key: acme.key })).status).toBe(200);
    // Bob reconnects on the media layer; its webhook reaches Convene.
    suite.media.addParticipant(room.mediaRoomName, { identity: people.bob.mediaIdentity });
    const joinedBefore = await joinedEvents(room.id);
    const res = await suite.media.sendWebhook(hook(), {
      event: 'participant_joined',
      room: { name: room.mediaRoomName, sid: 'RM_1' },
      participant: {
        identity: people.bob.mediaIdentity,
        sid: 'PA_again',
        joinedAt: String(Math.floor(Date.now() / 1000)),
      },
    });
    expect(res.status).toBe(200);
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(people.bob.mediaIdentity)).toBe(false);
    expect(suite.media.callsTo('RemoveParticipant').at(-1)?.body).toMatchObject({ identity: people.bob.mediaIdentity });
    expect(await stateOf(people.bob.id)).toBe('REMOVED');
    expect(await db().sessionConnection.count({ where: { participantId: people.bob.id } })).toBe(0);
    expect(await joinedEvents(room.id)).toBe(joinedBefore);
    // Its left is not a departure of anyone we counted.
    await suite.media.sendWebhook(hook(), {
      event: 'participant_left',
      room: { name: room.mediaRoomName, sid: 'RM_1' },
      participant: { identity: people.bob.mediaIdentity, sid: 'PA_again' },
    });
    expect(await db().sessionConnection.count({ where: { participantId: people.bob.id } })).toBe(0);
    expect(await stateOf(people.bob.id)).toBe('REMOVED');
  });

  it('the lifecycle sweep removes a turned-away participant still in the media room (a re-removal that failed)', async () => {
    const { room, people } = await liveRoom();
    await db().room.update({ where: { id: room.id }, data: { status: 'ACTIVE' } });
    expect((await suite.api('POST', `${base(room.id, people.amy.id)}/remove`, { key: acme.key })).status).toBe(200);
    suite.media.addParticipant(room.mediaRoomName, { identity: people.amy.mediaIdentity }); // back, no webhook
    await reconcileRooms();
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(people.amy.mediaIdentity)).toBe(false);
    expect(suite.media.rooms.get(room.mediaRoomName)!.participants.has(people.bob.mediaIdentity)).toBe(true);
    expect(await stateOf(people.amy.id)).toBe('REMOVED');
  });
});
