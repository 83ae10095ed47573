import { beforeAll, describe, expect, it } from 'vitest';
import { TokenVerifier } from 'livekit-server-sdk';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  other = await seedTenant();
});

const call = (body: Record<string, unknown> = {}) =>
  suite.api('POST', '/api/v1/calls', {
    key: t.key,
    body: { callerExternalId: 'cust-1', callerDisplayName: 'Customer', ...body },
  });
const act = (id: string, action: string, body: Record<string, unknown> = {}) =>
  suite.api('POST', `/api/v1/calls/${id}/${action}`, { key: t.key, body });
const events = async (name: string, callId: string) =>
  (await db().event.findMany({ where: { tenantId: t.tenant.id, name } })).filter(
    (e) => (e.data as { callId: string }).callId === callId,
  );

describe('call queues', () => {
  it('queues a call with defaults, positions and call.queued', async () => {
    const res = await call({ skills: ['billing'], callerMetadata: { plan: 'pro' }, notes: 'VIP' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'QUEUED',
      queueName: 'default',
      priority: 0,
      skills: ['billing'],
      queuePosition: expect.any(Number),
      room: null,
      waitDuration: null,
    });
    expect(await events('call.queued', res.body.id)).toHaveLength(1);
    expect(
      (await suite.api('POST', '/api/v1/calls', { key: t.key, body: { callerExternalId: 'x' } })).body.error.details[0]
        .field,
    ).toBe('callerDisplayName');
    expect((await call({ priority: 'high' })).status).toBe(400);
  });

  it('lists "next up": priority first, then age, with queue positions and filters', async () => {
    const q = `desk-${Date.now()}`;
    const low = (await call({ queueName: q, skills: ['es'] })).body;
    const high = (await call({ queueName: q, priority: 5, skills: ['es', 'billing'] })).body;
    const low2 = (await call({ queueName: q, targetExternalId: 'agent-7' })).body;
    const list = await suite.api('GET', `/api/v1/calls?queueName=${q}`, { key: t.key });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([high.id, low.id, low2.id]);
    expect(list.body.data.map((c: { queuePosition: number }) => c.queuePosition)).toEqual([1, 2, 3]);
    const page1 = await suite.api('GET', `/api/v1/calls?queueName=${q}&limit=2`, { key: t.key });
    const page2 = await suite.api('GET', `/api/v1/calls?queueName=${q}&limit=2&cursor=${page1.body.nextCursor}`, {
      key: t.key,
    });
    expect(page2.body).toMatchObject({ data: [{ id: low2.id }], nextCursor: null });
    // A cursor of another list's shape, or no cursor at all, is 400 naming the field.
    for (const bad of [
      'nope',
      Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', 'x'])).toString('base64url'),
      Buffer.from('{}').toString('base64url'),
    ]) {
      const res = await suite.api('GET', `/api/v1/calls?queueName=${q}&cursor=${bad}`, { key: t.key });
      expect([res.status, res.body.error.details?.[0]?.field]).toEqual([400, 'cursor']);
    }
    expect(
      (await suite.api('GET', `/api/v1/calls?queueName=${q}&skills=es,billing`, { key: t.key })).body.data.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual([high.id]);
    expect(
      (await suite.api('GET', `/api/v1/calls?targetExternalId=agent-7`, { key: t.key })).body.data.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual([low2.id]);
    expect((await suite.api('GET', '/api/v1/calls?status=WAITING', { key: t.key })).status).toBe(400);
  });

  it('ring → accept creates a CALL room with caller and agent tokens; waitDuration computed', async () => {
    const c = (await call()).body;
    const rung = await act(c.id, 'ring', { agentExternalId: 'agent-1', agentDisplayName: 'Agent One' });
    expect(rung.body).toMatchObject({ status: 'RINGING', ringingExternalId: 'agent-1' });
    const res = await act(c.id, 'accept', { acceptedByExternalId: 'agent-1', acceptedByDisplayName: 'Agent One' });
    expect(res.status).toBe(200);
    expect(res.body.call).toMatchObject({
      status: 'ACCEPTED',
      acceptedByExternalId: 'agent-1',
      roomId: res.body.room.id,
      waitDuration: expect.any(Number),
    });
    expect(res.body.room).toMatchObject({ type: 'CALL', maxParticipants: 2 });
    expect(res.body.room.participants.map((p: { externalUserId: string }) => p.externalUserId).sort()).toEqual([
      'agent-1',
      'cust-1',
    ]);
    expect(res.body.mediaUrl).toBe(suite.media.url);
    const verifier = new TokenVerifier(suite.media.apiKey, suite.media.apiSecret);
    const caller = await verifier.verify(res.body.callerToken);
    const agent = await verifier.verify(res.body.agentToken);
    expect(JSON.parse(caller.metadata!)).toMatchObject({
      role: 'ATTENDEE',
      externalUserId: 'cust-1',
      roomId: res.body.room.id,
    });
    expect(JSON.parse(agent.metadata!)).toMatchObject({ role: 'HOST', externalUserId: 'agent-1' });
    expect(caller.video!.room).toBe(res.body.room.mediaRoomName);
    const got = await suite.api('GET', `/api/v1/calls/${c.id}`, { key: t.key });
    expect(got.body.room.participants.map((p: { externalUserId: string }) => p.externalUserId).sort()).toEqual([
      'agent-1',
      'cust-1',
    ]);
    expect(await events('call.ringing', c.id)).toHaveLength(1);
    expect(await events('call.accepted', c.id)).toHaveLength(1);
  });

  it('two agents accepting at once: exactly one wins, one room exists', async () => {
    const c = (await call()).body;
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) =>
        act(c.id, 'accept', { acceptedByExternalId: `agent-${n}`, acceptedByDisplayName: n }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const losers = results.filter((r) => r.status === 409);
    expect(losers).toHaveLength(3);
    expect(losers.every((r) => r.body.error.code === 'INVALID_STATE')).toBe(true);
    expect(await db().room.count({ where: { tenantId: t.tenant.id, calls: { some: { id: c.id } } } })).toBe(1);
    expect(await events('call.accepted', c.id)).toHaveLength(1);
  });

  it('end closes the room and computes callDuration; accepting an ended, cancelled or accepted call is 409', async () => {
    const c = (await call()).body;
    const accepted = (await act(c.id, 'accept', { acceptedByExternalId: 'agent-1', acceptedByDisplayName: 'A' })).body;
    expect(
      (await act(c.id, 'accept', { acceptedByExternalId: 'agent-2', acceptedByDisplayName: 'B' })).body.error.code,
    ).toBe('INVALID_STATE');
    expect((await act(c.id, 'cancel')).body.error.code).toBe('INVALID_STATE');
    const ended = await act(c.id, 'end');
    expect(ended.body).toMatchObject({ status: 'ENDED', callDuration: expect.any(Number) });
    expect((await db().room.findUniqueOrThrow({ where: { id: accepted.room.id } })).status).toBe('ENDED');
    expect((await act(c.id, 'accept', { acceptedByExternalId: 'agent-3', acceptedByDisplayName: 'C' })).status).toBe(
      409,
    );
    expect(await events('call.ended', c.id)).toHaveLength(1);

    const cancelled = (await call()).body;
    expect((await act(cancelled.id, 'cancel')).body).toMatchObject({
      status: 'CANCELLED',
      cancelledAt: expect.any(String),
      waitDuration: expect.any(Number),
    });
    expect((await act(cancelled.id, 'accept', { acceptedByExternalId: 'a', acceptedByDisplayName: 'A' })).status).toBe(
      409,
    );
    expect(await events('call.cancelled', cancelled.id)).toHaveLength(1);
    expect((await act(cancelled.id, 'end')).status).toBe(409);
  });

  it('forward re-queues for another agent; miss closes an unanswered call', async () => {
    const c = (await call()).body;
    await act(c.id, 'ring', { agentExternalId: 'agent-1' });
    const forwarded = await act(c.id, 'forward', {
      forwardedByExternalId: 'agent-1',
      forwardedToExternalId: 'agent-9',
      targetDisplayName: 'Nine',
    });
    expect(forwarded.body).toMatchObject({
      status: 'QUEUED',
      forwardedByExternalId: 'agent-1',
      forwardedToExternalId: 'agent-9',
      targetExternalId: 'agent-9',
      ringingExternalId: null,
    });
    expect(await events('call.forwarded', c.id)).toHaveLength(1);
    const missed = await act(c.id, 'miss');
    expect(missed.body.status).toBe('MISSED');
    expect(await events('call.missed', c.id)).toHaveLength(1);
    expect((await act(c.id, 'ring', { agentExternalId: 'x' })).status).toBe(409);
  });

  it("another tenant's calls are 404", async () => {
    const c = (await call()).body;
    expect((await suite.api('GET', `/api/v1/calls/${c.id}`, { key: other.key })).status).toBe(404);
    expect(
      (
        await suite.api('POST', `/api/v1/calls/${c.id}/accept`, {
          key: other.key,
          body: { acceptedByExternalId: 'x', acceptedByDisplayName: 'X' },
        })
      ).status,
    ).toBe(404);
    expect((await suite.api('GET', '/api/v1/calls', { key: other.key })).body.data).toEqual([]);
  });
});
