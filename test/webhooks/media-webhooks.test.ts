import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
let participant: { id: string; mediaIdentity: string };

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
  participant = (
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'ada', displayName: 'Ada' },
    })
  ).body.participant;
});

const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
const events = (name: string) =>
  db().event.findMany({ where: { tenantId: t.tenant.id, name }, orderBy: { occurredAt: 'asc' } });

describe('media-layer webhooks in', () => {
  it('a bad signature is 401 and changes nothing', async () => {
    const res = await suite.media.sendWebhook(
      hook(),
      { event: 'room_started', room: { name: room.mediaRoomName, sid: 'RM_x' } },
      { apiKey: suite.media.apiKey, apiSecret: 'wrong-secret' },
    );
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.code).toBe('UNAUTHENTICATED');
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).status).toBe('WAITING');
    const unsigned = await fetch(hook(), {
      method: 'POST',
      headers: { 'content-type': 'application/webhook+json' },
      body: '{"event":"room_started"}',
    });
    expect(unsigned.status).toBe(401);
    expect(await events('room.started')).toHaveLength(0);
  });

  it('room_started and participant_joined/left update our rows and are relayed; duplicates are no-ops', async () => {
    const started = { id: 'EV_start_1', event: 'room_started', room: { name: room.mediaRoomName, sid: 'RM_live' } };
    expect((await suite.media.sendWebhook(hook(), started)).status).toBe(200);
    expect((await suite.media.sendWebhook(hook(), started)).status).toBe(200);
    const activeRoom = await db().room.findUniqueOrThrow({ where: { id: room.id } });
    expect(activeRoom).toMatchObject({ status: 'ACTIVE', mediaSid: 'RM_live' });
    expect(await events('room.started')).toHaveLength(1);

    const joinedAt = Math.floor(Date.now() / 1000) - 30;
    await suite.media.sendWebhook(hook(), {
      id: 'EV_j',
      event: 'participant_joined',
      room: { name: room.mediaRoomName },
      participant: { identity: participant.mediaIdentity, sid: 'PA_1', joinedAt: String(joinedAt) },
    });
    const connected = await db().participant.findUniqueOrThrow({ where: { id: participant.id } });
    expect(connected).toMatchObject({ connectionState: 'CONNECTED', mediaSid: 'PA_1' });
    expect(connected.joinedAt!.getTime()).toBe(joinedAt * 1000);
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).activeParticipants).toBe(1);
    const [joinedEvent] = await events('participant.joined');
    expect(joinedEvent.data).toMatchObject({
      roomId: room.id,
      participantId: participant.id,
      externalUserId: 'ada',
      role: 'ATTENDEE',
    });

    await suite.media.sendWebhook(hook(), {
      id: 'EV_l',
      event: 'participant_left',
      room: { name: room.mediaRoomName },
      participant: { identity: participant.mediaIdentity, sid: 'PA_1' },
    });
    const left = await db().participant.findUniqueOrThrow({ where: { id: participant.id } });
    expect(left.connectionState).toBe('DISCONNECTED');
    expect(left.duration).toBeGreaterThanOrEqual(29);
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).activeParticipants).toBe(0);
    expect(await events('participant.left')).toHaveLength(1);
  });

  it('track events are acknowledged and not forwarded; egress and ingress events are relayed', async () => {
    const before = await db().event.count({ where: { tenantId: t.tenant.id } });
    const track = await suite.media.sendWebhook(hook(), {
      event: 'track_published',
      room: { name: room.mediaRoomName },
    });
    expect(track.status).toBe(200);
    expect(await db().event.count({ where: { tenantId: t.tenant.id } })).toBe(before);
    await suite.media.sendWebhook(hook(), {
      event: 'egress_ended',
      egressInfo: { egressId: 'EG_1', roomName: room.mediaRoomName, status: 'EGRESS_COMPLETE' },
    });
    await suite.media.sendWebhook(hook(), {
      event: 'ingress_started',
      ingressInfo: { ingressId: 'IN_1', roomName: room.mediaRoomName, state: { status: 'ENDPOINT_PUBLISHING' } },
    });
    expect((await events('egress.ended'))[0].data).toEqual({
      roomId: room.id,
      egressId: 'EG_1',
      status: 'EGRESS_COMPLETE',
    });
    expect((await events('ingress.started'))[0].data).toEqual({
      roomId: room.id,
      ingressId: 'IN_1',
      status: 'ENDPOINT_PUBLISHING',
    });
  });

  it('room_finished ends the room and emits room.finished exactly once, also after our own end', async () => {
    await suite.media.sendWebhook(hook(), { id: 'EV_fin', event: 'room_finished', room: { name: room.mediaRoomName } });
    await suite.media.sendWebhook(hook(), {
      id: 'EV_fin_again',
      event: 'room_finished',
      room: { name: room.mediaRoomName },
    });
    await suite.api('POST', `/api/v1/rooms/${room.id}/end`, { key: t.key });
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).status).toBe('ENDED');
    expect(
      (await events('room.finished')).filter((e) => (e.data as { roomId: string }).roomId === room.id),
    ).toHaveLength(1);
  });
});
