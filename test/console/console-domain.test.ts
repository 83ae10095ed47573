import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';
import { hashPassword, verifyPassword } from '@/lib/console/passwords';
import { consumeSignInAttempt, refundSignInAttempt } from '@/lib/console/sign-in-limit';
import {
  assertCanManage,
  consoleActor,
  createConsoleUser,
  ownedTenantOf,
  resellerTenants,
  roomEvents,
  tenantOverview,
} from '@/lib/domain/console';
import { seedIfEmpty } from '@/lib/runtime/seed';
import { ApiError } from '@/lib/errors';

// The console's rules below the UI (the journeys themselves run in Chromium: e2e/console.spec.ts).
useSuite();

const room = (tenantId: string, name: string, status: 'ACTIVE' | 'ENDED' | 'WAITING' = 'ACTIVE') =>
  db().room.create({
    data: { tenantId, name, createdByExternalId: 't', slug: name, mediaRoomName: `${tenantId}-${name}`, status },
  });

describe('console passwords', () => {
  it('hashes with scrypt and a fresh salt; verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', a)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$garbage')).toBe(false);
  });

  it('allows 10 sign-in attempts per account whatever the address, then refuses', async () => {
    const results = [];
    // A new address for every attempt (as a rotated X-Forwarded-For would give) buys nothing.
    for (let i = 0; i < 11; i++) results.push(await consumeSignInAttempt('someone@example.com', `10.0.0.${i + 1}`));
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(results[10]).toBe(false);
    expect(await consumeSignInAttempt('Someone@Example.com', '10.9.9.9')).toBe(false);
    expect(await consumeSignInAttempt('someone-else@example.com', '10.0.0.1')).toBe(true);
  });

  it('a successful sign-in costs nothing: an owner who signs in twenty times is never refused', async () => {
    for (let i = 0; i < 20; i++) {
      expect(await consumeSignInAttempt('busy-owner@example.com', '10.1.1.1')).toBe(true);
      await refundSignInAttempt('busy-owner@example.com', '10.1.1.1');
    }
    // Failures still count: ten wrong passwords after all that, then the eleventh attempt is refused.
    for (let i = 0; i < 10; i++) expect(await consumeSignInAttempt('busy-owner@example.com', '10.1.1.1')).toBe(true);
    expect(await consumeSignInAttempt('busy-owner@example.com', '10.1.1.1')).toBe(false);
  });

  it('allows 100 sign-in attempts per address across accounts', async () => {
    const results = [];
    for (let i = 0; i < 101; i++) results.push(await consumeSignInAttempt(`spray-${i}@example.com`, '192.0.2.77'));
    expect(results.filter(Boolean)).toHaveLength(100);
    expect(results[100]).toBe(false);
  });
});

describe('console users and actors', () => {
  it('the first start seeds an owner, a viewer and a reseller whose printed passwords work', async () => {
    const seed = await seedIfEmpty();
    expect(seed.consoleUsers?.map((u) => [u.email, u.role])).toEqual([
      ['owner@demo.convene.dev', 'OWNER'],
      ['viewer@demo.convene.dev', 'VIEWER'],
      ['reseller@demo.convene.dev', 'OWNER'],
    ]);
    for (const u of seed.consoleUsers!) {
      const row = await db().user.findUniqueOrThrow({ where: { email: u.email } });
      expect(row.passwordHash).not.toContain(u.password);
      expect(await verifyPassword(u.password, row.passwordHash)).toBe(true);
      const actor = await consoleActor(row.id);
      expect(actor?.kind).toBe(u.email.startsWith('reseller') ? 'provider' : 'tenant');
      if (actor?.kind === 'tenant') expect(actor.tenant.id).toBe(seed.liveTenant!.id);
    }
  });

  it('a console user belongs to exactly one tenant or provider', async () => {
    const t = await seedTenant();
    await expect(
      db().$transaction((tx) => createConsoleUser({ email: 'x@y.dev', password: 'p', role: 'ADMIN' }, { tx })),
    ).rejects.toThrow(ApiError);
    await expect(
      db().$transaction((tx) =>
        createConsoleUser(
          {
            email: 'x@y.dev',
            password: 'p',
            role: 'ADMIN',
            tenantId: t.tenant.id,
            providerId: t.provider.id,
          },
          { tx },
        ),
      ),
    ).rejects.toThrow(ApiError);
  });

  it('viewers may read but not change; owners and admins may change', async () => {
    const t = await seedTenant();
    const make = (email: string, role: 'OWNER' | 'ADMIN' | 'VIEWER') =>
      db().$transaction((tx) => createConsoleUser({ email, password: 'pw', role, tenantId: t.tenant.id }, { tx }));
    for (const [email, role, allowed] of [
      ['o@t.dev', 'OWNER', true],
      ['a@t.dev', 'ADMIN', true],
      ['v@t.dev', 'VIEWER', false],
    ] as const) {
      const actor = (await consoleActor((await make(email, role)).id))!;
      if (allowed) expect(() => assertCanManage(actor)).not.toThrow();
      else expect(() => assertCanManage(actor)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    }
  });

  it('a reseller reaches only its own tenants; a tenant user reaches none', async () => {
    const mine = await seedTenant({ name: 'Mine' });
    const theirs = await seedTenant({ name: 'Theirs' });
    const reseller = await db().$transaction((tx) =>
      createConsoleUser({ email: 'r@p.dev', password: 'pw', role: 'OWNER', providerId: mine.provider.id }, { tx }),
    );
    const tenantUser = await db().$transaction((tx) =>
      createConsoleUser({ email: 'u@p.dev', password: 'pw', role: 'OWNER', tenantId: mine.tenant.id }, { tx }),
    );
    const actor = (await consoleActor(reseller.id))!;
    expect((await ownedTenantOf(actor, mine.tenant.id)).id).toBe(mine.tenant.id);
    await expect(ownedTenantOf(actor, theirs.tenant.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ownedTenantOf((await consoleActor(tenantUser.id))!, mine.tenant.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await resellerTenants(mine.provider.id)).map((r) => r.tenant.id)).toEqual([mine.tenant.id]);
  });
});

describe('dashboard numbers', () => {
  it("the overview counts this tenant's live rooms, connected participants and webhook success", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    const live = await room(t.tenant.id, 'live');
    await room(t.tenant.id, 'over', 'ENDED');
    const foreign = await room(other.tenant.id, 'foreign');
    const p = (roomId: string, tenantId: string, id: string, connectionState: 'CONNECTED' | 'DISCONNECTED') =>
      db().participant.create({
        data: {
          roomId,
          tenantId,
          externalUserId: id,
          displayName: id,
          mediaIdentity: `${roomId}-${id}`,
          connectionState,
        },
      });
    await p(live.id, t.tenant.id, 'a', 'CONNECTED');
    await p(live.id, t.tenant.id, 'b', 'DISCONNECTED');
    await p(foreign.id, other.tenant.id, 'c', 'CONNECTED');
    const event = await db().event.create({
      data: { id: 'evt_overview', tenantId: t.tenant.id, name: 'webhook.test', data: {}, occurredAt: new Date() },
    });
    for (const status of ['DELIVERED', 'DELIVERED', 'DELIVERED', 'FAILED', 'PENDING'] as const) {
      await db().webhookDelivery.create({
        data: { tenantId: t.tenant.id, eventId: event.id, eventName: 'webhook.test', url: 'https://x.test', status },
      });
    }
    // Sessions per day: two today, one yesterday, another tenant's not counted.
    const day = 86_400_000;
    for (const [tenantId, startedAt] of [
      [t.tenant.id, new Date()],
      [t.tenant.id, new Date()],
      [t.tenant.id, new Date(Date.now() - day)],
      [other.tenant.id, new Date()],
    ] as const) {
      await db().roomSession.create({
        data: { tenantId, roomId: tenantId === t.tenant.id ? live.id : foreign.id, startedAt },
      });
    }
    const overview = await tenantOverview(t.tenant);
    expect(overview.days.at(-1)!.sessions).toBe(2);
    expect(overview.days.at(-2)!.sessions).toBe(1);
    expect(overview.days.reduce((n, d) => n + d.sessions, 0)).toBe(3);
    expect(overview.liveRooms).toBe(1);
    expect(overview.participantsNow).toBe(1);
    expect(overview.days).toHaveLength(30);
    expect(overview.days.at(-1)!.webhookSuccessRate).toBe(75);
    expect(overview.days[0].webhookSuccessRate).toBeNull();
  });

  it("a room's events are its own", async () => {
    const t = await seedTenant();
    const a = await room(t.tenant.id, 'a');
    const b = await room(t.tenant.id, 'b');
    await db().event.createMany({
      data: [
        {
          id: 'evt_a1',
          tenantId: t.tenant.id,
          name: 'room.started',
          data: { roomId: a.id },
          occurredAt: new Date(Date.now() - 1000),
        },
        {
          id: 'evt_a2',
          tenantId: t.tenant.id,
          name: 'participant.joined',
          data: { roomId: a.id },
          occurredAt: new Date(),
        },
        { id: 'evt_b1', tenantId: t.tenant.id, name: 'room.started', data: { roomId: b.id }, occurredAt: new Date() },
      ],
    });
    expect((await roomEvents(t.tenant.id, a.id)).map((e) => e.id)).toEqual(['evt_a2', 'evt_a1']);
  });

  it("the reseller table sums this month's participant-minutes and API requests per tenant", async () => {
    const t = await seedTenant();
    const r = await room(t.tenant.id, 'usage', 'ENDED');
    const now = new Date();
    await db().participant.create({
      data: {
        roomId: r.id,
        tenantId: t.tenant.id,
        externalUserId: 'u',
        displayName: 'u',
        mediaIdentity: `${r.id}-u`,
        connectionState: 'DISCONNECTED',
        leftAt: now,
        duration: 90 * 60,
      },
    });
    await db().usageCounter.create({
      data: { tenantId: t.tenant.id, day: new Date(now.toISOString().slice(0, 10)), metric: 'api_requests', value: 42 },
    });
    const [row] = await resellerTenants(t.provider.id, now);
    expect(row).toMatchObject({ participantMinutes: 90, apiRequests: 42 });
  });
});
