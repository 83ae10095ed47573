/**
 * Seeds the console e2e database (run with tsx by the global setup; prints JSON on stdout): the
 * demo provider, tenants and console users, plus a little history so the dashboards have data.
 */
import { db, disconnectDb } from '@/lib/db';
import { seedIfEmpty } from '@/lib/runtime/seed';

async function main() {
  const seed = await seedIfEmpty();
  if (!seed.created) throw new Error('e2e database was not empty');
  const live = seed.liveTenant!.id;
  const other = seed.sandboxTenant!.id;
  const room = (tenantId: string, name: string, status: 'ACTIVE' | 'ENDED') =>
    db().room.create({
      data: {
        tenantId,
        name,
        createdByExternalId: 'e2e',
        slug: name.toLowerCase().replace(/\W+/g, '-'),
        mediaRoomName: `e2e-${tenantId}-${name}`.replace(/\W+/g, '-'),
        status,
      },
    });
  const standup = await room(live, 'Daily standup', 'ACTIVE');
  await room(live, 'Sales demo', 'ENDED');
  const foreign = await room(other, 'Other tenant room', 'ACTIVE');
  const now = Date.now();
  await db().participant.createMany({
    data: [
      {
        roomId: standup.id,
        tenantId: live,
        externalUserId: 'u1',
        displayName: 'Ada',
        mediaIdentity: `${standup.id}-u1`,
        role: 'HOST',
        connectionState: 'CONNECTED',
        joinedAt: new Date(now - 600_000),
      },
      ...Array.from({ length: 6 }, (_, i) => ({
        roomId: standup.id,
        tenantId: live,
        externalUserId: `past${i}`,
        displayName: `Guest ${i}`,
        mediaIdentity: `${standup.id}-past${i}`,
        connectionState: 'DISCONNECTED' as const,
        joinedAt: new Date(now - (i + 1) * 86_400_000 - 1_800_000),
        leftAt: new Date(now - (i + 1) * 86_400_000),
        duration: 1800 + i * 300,
      })),
    ],
  });
  // A past meeting in the standup room, so its page shows the sessions and events tables.
  await db().roomSession.create({
    data: {
      tenantId: live,
      roomId: standup.id,
      startedAt: new Date(now - 86_400_000 - 1_800_000),
      endedAt: new Date(now - 86_400_000),
      duration: 1800,
      peakParticipants: 6,
      uniqueAttendees: 6,
    },
  });
  await db().event.create({
    data: {
      id: 'evt_e2eseedstandupstarted',
      tenantId: live,
      name: 'room.started',
      data: { roomId: standup.id },
      occurredAt: new Date(now - 86_400_000 - 1_800_000),
    },
  });
  for (let d = 0; d < 7; d++) {
    const day = new Date(new Date(now - d * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00Z');
    await db().usageCounter.create({ data: { tenantId: live, day, metric: 'api_requests', value: 40 + d * 13 } });
  }
  process.stdout.write(JSON.stringify({ ...seed, liveRoomId: standup.id, foreignRoomId: foreign.id }));
  await disconnectDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
