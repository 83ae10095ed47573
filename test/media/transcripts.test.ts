/**
 * Transcripts of completed recordings through the OpenAI-compatible transcription API, against a
 * local test server that answers a fixed text and records what it was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSuite, seedTenant } from '../support/suite';
import { startSttServer, type SttServer } from '../support/stt-server';
import { ffmpegBin, probe } from '../support/media-probe';
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
      // Small, so a seven-second recording is over it: a provider's real limit is 25 MB.
      STT_MAX_UPLOAD_BYTES: '12000',
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
    expect(ready.map((e) => e.data)).toEqual([
      { transcriptId: transcript.id, recordingId, roomId: r.id, sessionId: null, source: 'RECORDING' },
    ]);
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

  it('a recording over the upload limit is sent as its audio, in Ogg/Opus pieces that fit, with the segments on one timeline', async () => {
    // Seven seconds of camera and tone, as the composite egress writes it (H.264 + AAC in MP4).
    const file = path.join(storageDir, 'seven-seconds.mp4');
    const made = spawnSync(ffmpegBin, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15:duration=7',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=7',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      file,
    ]);
    expect(made.status, made.stderr.toString()).toBe(0);
    const mp4 = readFileSync(file);
    expect(mp4.length).toBeGreaterThan(12_000);
    const before = stt.received.length;
    const r = await room({ enableRecording: true, enableAiFeatures: true });
    const recordingId = await completedRecording(r.id, r.mediaRoomName, mp4);

    await expect.poll(async () => (await transcriptOf(recordingId))?.status, { timeout: 20_000 }).toBe('COMPLETED');
    const uploads = stt.received.slice(before);
    // 12,000 bytes take two-second pieces of 24 kb/s Opus (with room to spare): four for seven seconds.
    expect(uploads.length).toBe(4);
    for (const [i, upload] of uploads.entries()) {
      expect(upload).toMatchObject({ contentType: 'audio/ogg', filename: `piece-000${i}.ogg` });
      expect(upload.audio.length).toBeLessThanOrEqual(12_000);
      const piece = path.join(storageDir, `piece-${i}.ogg`);
      writeFileSync(piece, upload.audio);
      const found = probe(piece);
      expect(found).toMatchObject({ format: 'ogg', audio: { codec: 'opus' }, decodes: true });
      expect(found.video).toBeUndefined();
    }
    // The test server answers one segment, 0–1.5 s, for each piece: each moved to its piece's start.
    const transcript = await transcriptOf(recordingId);
    expect(transcript.segments.map((s: { start: number }) => Math.round(s.start))).toEqual([0, 2, 4, 6]);
    expect(transcript.segments[3].end - transcript.segments[3].start).toBeCloseTo(1.5);
    expect(transcript.text).toBe('hello world hello world hello world hello world');
  }, 40_000);
});
