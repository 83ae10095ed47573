/**
 * Transcripts of completed recordings through the OpenAI-compatible transcription API, against a
 * local test server that answers a fixed text and records what it was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSuite, seedTenant } from '../support/suite';
import { startSttServer, type SttServer } from '../support/stt-server';
import { db } from '@/lib/db';

const storageDir = mkdtempSync(path.join(os.tmpdir(), 'convene-storage-'));
let stt: SttServer;
const suite = useSuite({
  env: async () => {
    stt = await startSttServer('hello world');
    return {
      STORAGE_DIR: storageDir,
      STT_BASE_URL: stt.baseUrl,
      STT_API_KEY: 'stt-key',
      STT_MODEL: 'whisper-large-v3',
    };
  },
});
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
});
afterAll(() => stt?.close());

const room = async (body: Record<string, unknown>) =>
  (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u', ...body } })).body;

/** Starts a recording and completes it as the media layer's egress would, with `bytes` in the file. */
async function completedRecording(roomId: string, mediaRoomName: string, bytes: Buffer) {
  const rec = (await suite.api('POST', `/api/v1/rooms/${roomId}/recordings/start`, { key: t.key, body: {} })).body;
  const row = await db().recording.findUniqueOrThrow({ where: { id: rec.id } });
  const egress = [...suite.media.egresses.values()].at(-1)!;
  mkdirSync(path.dirname(path.join(storageDir, row.storageKey)), { recursive: true });
  writeFileSync(path.join(storageDir, row.storageKey), bytes);
  await suite.media.sendWebhook(`${suite.app.baseUrl}/api/media/webhook`, {
    event: 'egress_ended',
    egressInfo: { egressId: egress.egressId, roomName: mediaRoomName, status: 'EGRESS_COMPLETE' },
  });
  return rec.id as string;
}

const transcriptOf = async (recordingId: string) =>
  (await suite.api('GET', `/api/v1/recordings/${recordingId}/transcripts`, { key: t.key })).body.data[0];

describe('transcripts', () => {
  it('a completed recording of an AI room is sent to the OpenAI-compatible API; its segments and transcript.ready follow', async () => {
    const r = await room({ enableRecording: true, enableAiFeatures: true });
    const file = Buffer.alloc(4096, 1);
    const recordingId = await completedRecording(r.id, r.mediaRoomName, file);

    await expect.poll(async () => (await transcriptOf(recordingId))?.status, { timeout: 15_000 }).toBe('COMPLETED');
    const transcript = await transcriptOf(recordingId);
    expect(transcript).toMatchObject({
      recordingId,
      text: 'hello world',
      segments: [{ start: 0, end: 1.5, text: 'hello world' }],
      provider: new URL(stt.baseUrl).host,
    });
    expect((await suite.api('GET', `/api/v1/transcripts/${transcript.id}`, { key: t.key })).body.id).toBe(
      transcript.id,
    );
    expect(stt.received).toHaveLength(1);
    expect(stt.received[0]).toMatchObject({
      path: '/v1/audio/transcriptions',
      authorization: 'Bearer stt-key',
      model: 'whisper-large-v3',
      responseFormat: 'verbose_json',
      filename: 'recording.mp4',
      contentType: 'video/mp4',
    });
    expect(stt.received[0].audio.equals(file)).toBe(true);
    const ready = await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'transcript.ready' } });
    expect(ready.map((e) => e.data)).toEqual([{ transcriptId: transcript.id, recordingId }]);
  }, 30_000);

  it("the provider's refusal leaves the transcript FAILED with its reason; a room without the AI opt-in is not transcribed", async () => {
    stt.failNext(401, 'Incorrect API key provided');
    const r = await room({ enableRecording: true, enableAiFeatures: true });
    const recordingId = await completedRecording(r.id, r.mediaRoomName, Buffer.alloc(100, 2));
    await expect.poll(async () => (await transcriptOf(recordingId))?.status, { timeout: 15_000 }).toBe('FAILED');
    expect((await transcriptOf(recordingId)).error).toMatch(
      /^speech-to-text answered 401: .*Incorrect API key provided/,
    );

    const plain = await room({ enableRecording: true });
    const plainRecording = await completedRecording(plain.id, plain.mediaRoomName, Buffer.alloc(10, 1));
    expect((await suite.api('GET', `/api/v1/recordings/${plainRecording}`, { key: t.key })).body.status).toBe(
      'COMPLETED',
    );
    expect(await db().transcript.count({ where: { recordingId: plainRecording } })).toBe(0);
  }, 30_000);
});
