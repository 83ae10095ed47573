import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinRoom } from '../support/rooms';
import { db } from '@/lib/db';
import { endDueRooms, endEmptyRooms, pruneRetention, reconcileRooms } from '@/lib/domain/lifecycle';

// The lifecycle job is driven directly with a controllable clock; the job wiring is tested in
// the multi-instance suite. LIFECYCLE_INTERVAL_SECONDS is long so the app's own job stays out of the way.
const suite = useSuite({ env: () => ({ LIFECYCLE_INTERVAL_SECONDS: '3600' }) });
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
});

const create = (body: Record<string, unknown> = {}) => createRoom(suite, t.key, { createdByExternalId: 'u', ...body });
const finishedEvents = async (roomId: string) =>
  (await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'room.finished' } })).filter(
    (e) => (e.data as { roomId: string }).roomId === roomId,
  );

describe('room lifecycle', () => {
  it('scheduledAt: joins open a window before the start (425 TOO_EARLY before it); hosts may always join', async () => {
    const soon = await create({ scheduledAt: new Date(Date.now() + 10 * 60_000).toISOString() });
    const later = await create({ scheduledAt: new Date(Date.now() + 60 * 60_000).toISOString() });
    const join = (roomId: string, role = 'ATTENDEE') =>
      suite.api('POST', `/api/v1/rooms/${roomId}/join`, {
        key: t.key,
        body: { externalUserId: `u-${role}`, displayName: 'U', role },
      });
    expect((await join(soon.id)).status).toBe(200);
    const early = await join(later.id);
    expect([early.status, early.body.error.code]).toEqual([425, 'TOO_EARLY']);
    expect(early.body.error.message).toContain(
      new Date(new Date(later.scheduledAt).getTime() - 15 * 60_000).toISOString(),
    );
    expect((await join(later.id, 'HOST')).status).toBe(200);
  });

  it('autoEndAt ends the room at that time, once, with room.finished relayed', async () => {
    const room = await create({ autoEndAt: new Date(Date.now() + 3_600_000).toISOString() });
    suite.media.addParticipant(room.mediaRoomName, { identity: 'x' });
    expect(await endDueRooms(new Date())).toBe(0);
    const at = new Date(Date.now() + 3_600_001);
    expect(await endDueRooms(at)).toBe(1);
    expect(await endDueRooms(at)).toBe(0);
    const ended = await db().room.findUniqueOrThrow({ where: { id: room.id } });
    expect(ended).toMatchObject({ status: 'ENDED' });
    expect(ended.endedAt!.getTime()).toBe(at.getTime());
    expect(suite.media.rooms.has(room.mediaRoomName)).toBe(false);
    expect(await finishedEvents(room.id)).toHaveLength(1);
  });

  it('with the media layer down, auto-end waits and retries (nothing half-done)', async () => {
    const room = await create({ autoEndAt: new Date(Date.now() + 1000).toISOString() });
    suite.media.addParticipant(room.mediaRoomName, { identity: 'x' });
    suite.media.setDown(true);
    try {
      expect(await endDueRooms(new Date(Date.now() + 5000))).toBe(0);
    } finally {
      suite.media.setDown(false);
    }
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).status).toBe('WAITING');
    expect(await endDueRooms(new Date(Date.now() + 5000))).toBe(1);
  });

  it('an ACTIVE room empty for the tenant timeout is ended', async () => {
    const room = await create();
    const p = (await joinRoom(suite, t.key, room.id, { externalUserId: 'e', displayName: 'E' })).participant;
    const leftAt = new Date();
    await db().room.update({
      where: { id: room.id },
      data: { status: 'ACTIVE', startedAt: new Date(Date.now() - 3_600_000) },
    });
    await db().participant.update({ where: { id: p.id }, data: { connectionState: 'DISCONNECTED', leftAt } });
    expect(await endEmptyRooms(new Date(leftAt.getTime() + 9 * 60_000))).toBe(0);
    expect(await endEmptyRooms(new Date(leftAt.getTime() + 10 * 60_000))).toBe(1);
    expect((await db().room.findUniqueOrThrow({ where: { id: room.id } })).status).toBe('ENDED');
    expect(await finishedEvents(room.id)).toHaveLength(1);
  });

  it('reconciliation ends rooms the media layer no longer has and corrects participants', async () => {
    const gone = await create();
    await db().room.update({ where: { id: gone.id }, data: { status: 'ACTIVE', startedAt: new Date() } });
    const live = await create();
    const a = (await joinRoom(suite, t.key, live.id, { externalUserId: 'a', displayName: 'A' })).participant;
    const b = (await joinRoom(suite, t.key, live.id, { externalUserId: 'b', displayName: 'B' })).participant;
    await db().room.update({
      where: { id: live.id },
      data: { status: 'ACTIVE', startedAt: new Date(), activeParticipants: 2 },
    });
    await db().participant.updateMany({
      where: { id: { in: [a.id, b.id] } },
      data: { connectionState: 'CONNECTED', joinedAt: new Date() },
    });
    suite.media.addParticipant(live.mediaRoomName, { identity: a.mediaIdentity }); // b's participant_left webhook was lost
    const result = await reconcileRooms(new Date());
    expect(result.ended).toBeGreaterThanOrEqual(1);
    expect((await db().room.findUniqueOrThrow({ where: { id: gone.id } })).status).toBe('ENDED');
    expect((await db().room.findUniqueOrThrow({ where: { id: live.id } })).activeParticipants).toBe(1);
    expect((await db().participant.findUniqueOrThrow({ where: { id: b.id } })).connectionState).toBe('DISCONNECTED');
    expect((await db().participant.findUniqueOrThrow({ where: { id: a.id } })).connectionState).toBe('CONNECTED');
  });

  it('retention prunes old attempt bodies and expired idempotency records in batches', async () => {
    const event = await db().event.create({
      data: {
        id: `evt_ret_${Date.now()}`,
        tenantId: t.tenant.id,
        name: 'webhook.test',
        data: {},
        occurredAt: new Date(),
      },
    });
    const delivery = await db().webhookDelivery.create({
      data: {
        tenantId: t.tenant.id,
        eventId: event.id,
        eventName: 'webhook.test',
        url: 'https://x.example.com',
        status: 'DELIVERED',
      },
    });
    const old = new Date(Date.now() - 40 * 86_400_000);
    await db().webhookAttempt.createMany({
      data: Array.from({ length: 1200 }, (_, i) => ({
        deliveryId: delivery.id,
        attemptNumber: i + 1,
        requestUrl: 'https://x',
        requestHeaders: {},
        requestBody: '{"big":1}',
        responseBody: 'ok',
        durationMs: 1,
        willRetry: false,
        createdAt: i < 1100 ? old : new Date(),
      })),
    });
    await db().idempotencyRecord.createMany({
      data: [
        {
          scope: 's',
          key: 'old',
          method: 'POST',
          path: '/x',
          requestHash: 'h',
          expiresAt: new Date(Date.now() - 1000),
        },
        {
          scope: 's',
          key: 'new',
          method: 'POST',
          path: '/x',
          requestHash: 'h',
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      ],
    });
    const pruned = await pruneRetention(new Date(), 30);
    expect(pruned.attempts).toBe(1100);
    expect(pruned.idempotency).toBe(1);
    expect(await db().webhookAttempt.count({ where: { deliveryId: delivery.id, requestBody: '' } })).toBe(1100);
    expect(await db().webhookAttempt.count({ where: { deliveryId: delivery.id, requestBody: { not: '' } } })).toBe(100);
    expect(await db().idempotencyRecord.count({ where: { scope: 's' } })).toBe(1);
  });
});
