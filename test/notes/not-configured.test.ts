/**
 * An installation without a speech-to-text service (STT_BASE_URL) or a language model
 * (LLM_BASE_URL): asking for a transcript or a summary says so with its own code — not a 500, not
 * a silent no-op — and nothing is made.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { seedTenant, useSuite } from '../support/suite';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
});

describe('meeting notes without providers', () => {
  it('TRANSCRIPTION_NOT_CONFIGURED and SUMMARIES_NOT_CONFIGURED, with what to set; settings say configured: false', async () => {
    const room = await db().room.create({
      data: {
        tenantId: t.tenant.id,
        name: 'r',
        slug: 'r-unconfigured',
        mediaRoomName: 'm-unconfigured',
        createdByExternalId: 'host',
        enableRecording: true,
        enableAiFeatures: true,
      },
    });
    const recording = await db().recording.create({
      data: {
        tenantId: t.tenant.id,
        roomId: room.id,
        mediaEgressId: 'EG_unconfigured',
        status: 'COMPLETED',
        storageKey: 'k.ogg',
      },
    });
    const transcript = await db().transcript.create({
      data: { tenantId: t.tenant.id, roomId: room.id, recordingId: recording.id, status: 'COMPLETED', segments: [] },
    });
    const made = await suite.api('POST', '/api/v1/transcripts', { key: t.key, body: { recordingIds: [recording.id] } });
    expect([made.status, made.body.error.code]).toEqual([403, 'TRANSCRIPTION_NOT_CONFIGURED']);
    expect(made.body.error.message).toMatch(/STT_BASE_URL/);
    const summary = await suite.api('POST', `/api/v1/transcripts/${transcript.id}/summaries`, { key: t.key, body: {} });
    expect([summary.status, summary.body.error.code]).toEqual([403, 'SUMMARIES_NOT_CONFIGURED']);
    expect(summary.body.error.message).toMatch(/LLM_BASE_URL/);
    expect((await suite.api('GET', '/api/v1/summaries/settings', { key: t.key })).body).toEqual({
      kind: 'general',
      instruction: null,
      configured: false,
    });
    expect(await db().transcript.count()).toBe(1);
    expect(await db().summary.count()).toBe(0);
    // Reading what exists still works.
    expect((await suite.api('GET', `/api/v1/transcripts/${transcript.id}?format=vtt`, { key: t.key })).text).toBe(
      'WEBVTT\n\n',
    );
  });
});
