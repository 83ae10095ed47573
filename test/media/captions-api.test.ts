import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { joinRoom } from '../support/rooms';
import { startSttServer, type SttServer } from '../support/stt-server';
import { LIVE_TOPICS } from '@/lib/live-topics';

// Captions through the API with a speech-to-text service configured (what runs the captions
// worker): what the call page is told (GET /api/v1/me/captions, the `convene.captions` update).
let stt: SttServer;
const suite = useSuite({
  env: async () => {
    stt = await startSttServer('hello');
    return { STT_BASE_URL: stt.baseUrl };
  },
});
let t: Awaited<ReturnType<typeof seedTenant>>;
let sandbox: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  sandbox = await seedTenant({ isTestMode: true });
});
afterAll(async () => {
  await stt?.close();
});

const room = async (body: Record<string, unknown> = {}) =>
  (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u', ...body } })).body;

describe('captions as the call page sees them', () => {
  it('GET /me/captions names the agent while captions run; start and stop tell the room', async () => {
    const r = await room({ enableAiFeatures: true });
    const { token } = await joinRoom(suite, t.key, r.id, { externalUserId: 'bob', displayName: 'Bob' });
    const mine = async () => (await suite.api('GET', '/api/v1/me/captions', { bearer: token })).body;
    expect(await mine()).toEqual({ active: false, agentIdentity: null });

    const sentBefore = suite.media.callsTo('SendData').length;
    expect((await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: r.id } })).status).toBe(
      200,
    );
    const dispatch = [...suite.media.dispatches.values()].at(-1)!;
    // The identity the captions worker joins under (agents/captions/worker.ts), and no other.
    expect(await mine()).toEqual({ active: true, agentIdentity: `captions-${dispatch.id}` });
    const announced = suite.media.callsTo('SendData').slice(sentBefore);
    expect(announced.map((c) => c.body.topic)).toEqual([LIVE_TOPICS.captions]);

    expect((await suite.api('POST', '/api/v1/captions/stop', { key: t.key, body: { roomId: r.id } })).status).toBe(200);
    expect(await mine()).toEqual({ active: false, agentIdentity: null });
    expect(
      suite.media
        .callsTo('SendData')
        .slice(sentBefore)
        .map((c) => c.body.topic),
    ).toEqual([LIVE_TOPICS.captions, LIVE_TOPICS.captions]);
    // Without a participant token: refused.
    expect((await suite.api('GET', '/api/v1/me/captions')).status).toBe(401);
  });
});

describe('captions', () => {
  it('start dispatches the captions agent; status; stop; refusals with their codes', async () => {
    const r = await room({ enableAiFeatures: true });
    const started = await suite.api('POST', '/api/v1/captions/start', {
      key: t.key,
      body: { roomId: r.id, language: 'de' },
    });
    // Started: the session runs; the agent has not joined yet (the worker joins on its next poll).
    expect(started.body).toMatchObject({
      roomId: r.id,
      active: true,
      configured: true,
      agentJoined: false,
      language: 'de',
    });
    const dispatch = [...suite.media.dispatches.values()].at(-1)!;
    expect(dispatch).toMatchObject({ room: r.mediaRoomName, agentName: 'convene-captions' });
    expect(
      (await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: r.id } })).body.sessionId,
    ).toBe(started.body.sessionId);
    expect((await suite.api('GET', `/api/v1/captions/status/${r.id}`, { key: t.key })).body.active).toBe(true);
    expect((await suite.api('POST', '/api/v1/captions/stop', { key: t.key, body: { roomId: r.id } })).body.active).toBe(
      false,
    );
    expect(suite.media.dispatches.has(dispatch.id)).toBe(false);
    expect((await suite.api('POST', '/api/v1/captions/stop', { key: t.key, body: { roomId: r.id } })).status).toBe(409);

    // A room that ends stops its captions: status reads inactive, nothing is left to stop.
    const ending = await room({ enableAiFeatures: true });
    await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: ending.id } });
    expect((await suite.api('POST', `/api/v1/rooms/${ending.id}/end`, { key: t.key })).status).toBe(200);
    const afterEnd = await suite.api('GET', `/api/v1/captions/status/${ending.id}`, { key: t.key });
    expect([afterEnd.body.active, typeof afterEnd.body.stoppedAt]).toEqual([false, 'string']);

    const noAi = await room();
    expect(
      (await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: noAi.id } })).body.error.code,
    ).toBe('FEATURE_DISABLED');
    const e2ee = await room({ enableE2EE: true });
    expect(
      (await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: e2ee.id } })).body.error.code,
    ).toBe('FEATURE_DISABLED');
    const sb = (
      await suite.api('POST', '/api/v1/rooms', {
        key: sandbox.key,
        body: { createdByExternalId: 'u', enableAiFeatures: true },
      })
    ).body;
    expect(
      (await suite.api('POST', '/api/v1/captions/start', { key: sandbox.key, body: { roomId: sb.id } })).body.error
        .code,
    ).toBe('TEST_MODE_MEDIA_DISABLED');
    expect(
      (
        await suite.api('POST', '/api/v1/captions/start', {
          key: t.key,
          body: { roomId: r.id, language: 'english please' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('captions status tells the agent’s real state', () => {
  it('agentJoined once the captions agent is in the room, and no longer once it has left', async () => {
    const r = await room({ enableAiFeatures: true });
    await suite.api('POST', '/api/v1/captions/start', { key: t.key, body: { roomId: r.id } });
    const dispatch = [...suite.media.dispatches.values()].at(-1)!;
    const status = async () => (await suite.api('GET', `/api/v1/captions/status/${r.id}`, { key: t.key })).body;
    expect(await status()).toMatchObject({ active: true, configured: true, agentJoined: false });
    // The worker's participant, joined under the identity of its dispatch.
    suite.media.addParticipant(r.mediaRoomName, { identity: `captions-${dispatch.id}`, name: 'Captions' });
    expect(await status()).toMatchObject({ active: true, agentJoined: true });
    await suite.api('POST', '/api/v1/captions/stop', { key: t.key, body: { roomId: r.id } });
    expect(await status()).toMatchObject({ active: false, agentJoined: false });
  });
});
