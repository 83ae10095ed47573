/**
 * Meeting notes over the API, against a real app, database and development media server, with a
 * local OpenAI-compatible server (support/openai-server.ts) that checks what it is sent as the
 * real API does and "hears" the two test voices:
 *
 * - participant recordings (track egress of a microphone, participant egress of camera and
 *   microphone) are transcribed each on their own and merged with speakers, placed by when each
 *   file begins; the formats (WebVTT, SRT, text) by ?format= and by Accept; transcript.ready with
 *   the room and session; a summary through chat completions and summary.ready;
 * - the live transcript from the captions worker's segments (its media token, nobody else's),
 *   bounded, completed when the room ends;
 * - provider errors and timeouts: FAILED with the provider's reason, retried with backoff;
 * - the refusals: E2EE, AI off, test mode, the plan, an oversized instruction;
 * - a transcript longer than the model's context: summarised in parts, then combined.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { resetConfigForTests } from '@/lib/config';
import { runDueTranscripts, TRANSCRIPT_RETRY } from '@/lib/domain/transcripts';
import { LIVE_TRANSCRIPT_LIMITS } from '@/lib/domain/live-transcripts';
import { runDueSummaries } from '@/lib/domain/summaries';
import { seedTenant, useSuite } from '../support/suite';
import { joinRoom } from '../support/rooms';
import { CANNED_SUMMARY, startOpenAiStub, stubTokens, type OpenAiStub } from './support/openai-server';
import { voiceRecording } from './support/audio';
import { VOICES } from './support/voices';

const storageDir = mkdtempSync(path.join(os.tmpdir(), 'convene-notes-'));
let stub: OpenAiStub;
const CONTEXT = 1_500;
const suite = useSuite({
  env: async () => {
    stub = await startOpenAiStub({
      apiKey: 'sk-test',
      transcriptionModels: ['whisper-large-v3'],
      chatModels: ['llama-3.1-8b'],
      contextTokens: CONTEXT,
    });
    return {
      STORAGE_DIR: storageDir,
      STT_BASE_URL: stub.baseUrl,
      STT_API_KEY: 'sk-test',
      STT_MODEL: 'whisper-large-v3',
      STT_TIMEOUT_SECONDS: '5',
      LLM_BASE_URL: `${stub.baseUrl}/v1`,
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'llama-3.1-8b',
      LLM_CONTEXT_TOKENS: String(CONTEXT),
      LLM_TIMEOUT_SECONDS: '5',
    };
  },
});
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  resetConfigForTests();
});
afterAll(() => stub?.close());

const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  suite.api(method, url, { key: t.key, ...(body === undefined ? {} : { body }), headers });
const hook = () => `${suite.app.baseUrl}/api/media/webhook`;

async function aiRoom(extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/rooms', {
    createdByExternalId: 'host',
    enableRecording: true,
    enableAiFeatures: true,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; mediaRoomName: string };
}

/** Joins a person to the call as the media layer reports it: connected, with a microphone published. */
async function inCall(room: { id: string; mediaRoomName: string }, externalUserId: string, displayName: string) {
  const joined = await joinRoom(suite, t.key, room.id, { externalUserId, displayName });
  const identity = joined.participant.mediaIdentity as string;
  const microphone = `TR_${externalUserId}_mic`;
  suite.media.addParticipant(room.mediaRoomName, {
    identity,
    name: displayName,
    tracks: [
      { sid: microphone, type: 'AUDIO' },
      { sid: `TR_${externalUserId}_cam`, type: 'VIDEO' },
    ],
  });
  await suite.media.sendWebhook(hook(), {
    event: 'participant_joined',
    room: { name: room.mediaRoomName },
    participant: { identity, sid: `PA_${externalUserId}`, joinedAt: String(Math.floor(Date.now() / 1000)) },
  });
  return { ...joined, identity, microphone, participantId: joined.participant.id as string };
}

/** The media layer's egress of a recording ends complete, its file (`bytes`) in storage, begun at `fileStartedAt`. */
async function egressCompletes(recordingId: string, mediaRoomName: string, bytes: Buffer, fileStartedAt: Date) {
  const row = await db().recording.findUniqueOrThrow({ where: { id: recordingId } });
  const file = path.join(storageDir, row.storageKey);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  const ns = String(BigInt(fileStartedAt.getTime()) * 1_000_000n);
  await suite.media.sendWebhook(hook(), {
    event: 'egress_started',
    egressInfo: { egressId: row.mediaEgressId, roomName: mediaRoomName, status: 'EGRESS_ACTIVE' },
  });
  await suite.media.sendWebhook(hook(), {
    event: 'egress_ended',
    egressInfo: {
      egressId: row.mediaEgressId,
      roomName: mediaRoomName,
      status: 'EGRESS_COMPLETE',
      fileResults: [
        { filename: file, size: String(bytes.length), startedAt: ns, endedAt: String(BigInt(Date.now()) * 1_000_000n) },
      ],
    },
  });
}

const transcriptsOf = async (roomId: string) => (await api('GET', `/api/v1/transcripts?roomId=${roomId}`)).body.data;

async function settled(id: string, what: 'transcripts' | 'summaries', timeout = 30_000) {
  let last: { status: string } | undefined;
  await expect
    .poll(
      async () => {
        last = (await api('GET', `/api/v1/${what}/${id}`)).body;
        return last?.status;
      },
      { timeout, interval: 250 },
    )
    .toMatch(/COMPLETED|FAILED/);
  return last as Record<string, any>;
}

/** Parses WebVTT as a player would: the header, then cues of times and text. */
function parseVtt(text: string) {
  expect(text.startsWith('WEBVTT\n\n')).toBe(true);
  const time = (s: string) => {
    const [h, m, rest] = s.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(rest);
  };
  return text
    .slice('WEBVTT\n\n'.length)
    .trim()
    .split(/\n\n/)
    .map((block) => {
      const [id, timing, ...body] = block.split('\n');
      const m = /^(\d{2}:\d{2}:\d{2}\.\d{3}) --> (\d{2}:\d{2}:\d{2}\.\d{3})$/.exec(timing);
      expect(m, `cue ${id}: ${timing}`).not.toBeNull();
      const voice = /^<v ([^>]+)>(.*)<\/v>$/.exec(body.join('\n'));
      return {
        id: Number(id),
        start: time(m![1]),
        end: time(m![2]),
        speaker: voice?.[1],
        text: voice?.[2] ?? body.join('\n'),
      };
    });
}

function parseSrt(text: string) {
  const time = (s: string) => {
    const [h, m, rest] = s.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(rest.replace(',', '.'));
  };
  return text
    .trim()
    .split(/\n\n/)
    .map((block) => {
      const [id, timing, ...body] = block.split('\n');
      const m = /^(\d{2}:\d{2}:\d{2},\d{3}) --> (\d{2}:\d{2}:\d{2},\d{3})$/.exec(timing);
      expect(m, `cue ${id}: ${timing}`).not.toBeNull();
      const [, speaker, words] = /^([^:]+): (.*)$/.exec(body.join('\n')) ?? [];
      return { id: Number(id), start: time(m![1]), end: time(m![2]), speaker, text: words };
    });
}

describe('a speaker-attributed transcript from participant recordings', () => {
  let room: { id: string; mediaRoomName: string };
  let transcript: Record<string, any>;
  let ada: Awaited<ReturnType<typeof inCall>>;
  let bob: Awaited<ReturnType<typeof inCall>>;

  it('records each participant alone (track egress of a microphone, participant egress of camera and microphone)', async () => {
    room = await aiRoom();
    ada = await inCall(room, 'ada', 'Ada Lovelace');
    bob = await inCall(room, 'bob', 'Bob Byron');
    const before = suite.media.callsTo('StartTrackEgress').length;
    const audio = await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, {
      participant: { externalUserId: 'ada' },
      audioOnly: true,
    });
    expect(audio.status, audio.text).toBe(201);
    expect(audio.body).toMatchObject({ kind: 'PARTICIPANT', audioOnly: true, participantId: ada.participantId });
    expect(
      suite.media
        .callsTo('StartTrackEgress')
        .slice(before)
        .map((c) => c.body.track_id ?? c.body.trackId),
    ).toEqual([ada.microphone]);
    const av = await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, {
      participant: { externalUserId: 'bob' },
    });
    expect(av.status, av.text).toBe(201);
    expect(av.body).toMatchObject({ kind: 'PARTICIPANT', audioOnly: false, participantId: bob.participantId });
    const started = suite.media.callsTo('StartParticipantEgress').at(-1)!.body;
    expect(started.identity).toBe(bob.identity);
    // One at a time per participant; a room composite is not held up by them.
    expect(
      (await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { participant: { externalUserId: 'bob' } }))
        .status,
    ).toBe(409);
    expect(
      (await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { participant: { externalUserId: 'nobody' } }))
        .status,
    ).toBe(404);

    // Ada's file begins at T, Bob's 3 s later: each one's phrase is placed by when their file begins.
    const t0 = new Date(Date.now() - 10_000);
    const sttBefore = stub.transcriptions.length;
    await egressCompletes(audio.body.id, room.mediaRoomName, voiceRecording('low', 'ogg', { leadSeconds: 0.5 }), t0);
    // The first to end waits for the other: no transcript while a participant recording runs.
    expect(await transcriptsOf(room.id)).toEqual([]);
    await egressCompletes(
      av.body.id,
      room.mediaRoomName,
      voiceRecording('high', 'mp4', { leadSeconds: 0.5 }),
      new Date(t0.getTime() + 3_000),
    );

    const [queued] = await transcriptsOf(room.id);
    expect(queued).toMatchObject({ source: 'PARTICIPANT_RECORDINGS', recordingId: null });
    expect([...queued.recordingIds].sort()).toEqual([audio.body.id, av.body.id].sort());
    transcript = await settled(queued.id, 'transcripts');
    expect(transcript.status, transcript.error).toBe('COMPLETED');

    // What the provider was sent: each recording's own audio, as the API takes it.
    const sent = stub.transcriptions.slice(sttBefore);
    expect(sent.map((r) => [r.status, r.model, r.responseFormat, r.authorization]).sort()).toEqual([
      [200, 'whisper-large-v3', 'verbose_json', 'Bearer sk-test'],
      [200, 'whisper-large-v3', 'verbose_json', 'Bearer sk-test'],
    ]);
    expect(sent.map((r) => `${r.filename} ${r.contentType}`).sort()).toEqual([
      'recording.mp4 video/mp4',
      'recording.ogg audio/ogg',
    ]);
    // Each upload held one voice only: nobody's words under another's name.
    for (const r of sent) expect(new Set(r.heard.flatMap((h) => h.voices)).size).toBe(1);
  }, 90_000);

  it('merges them into one timeline with speakers, times from each file’s start', () => {
    expect(transcript).toMatchObject({
      source: 'PARTICIPANT_RECORDINGS',
      sessionId: expect.any(String),
      language: 'english',
      provider: new URL(stub.baseUrl).host,
      model: 'whisper-large-v3',
      attempts: 1,
    });
    expect(transcript.speakers).toEqual([
      { name: 'Ada Lovelace', participantId: ada.participantId, externalUserId: 'ada' },
      { name: 'Bob Byron', participantId: bob.participantId, externalUserId: 'bob' },
    ]);
    const [first, second] = transcript.segments;
    expect(transcript.segments).toHaveLength(2);
    expect(first).toMatchObject({ speaker: 'Ada Lovelace', externalUserId: 'ada', text: VOICES.low.phrase });
    expect(second).toMatchObject({ speaker: 'Bob Byron', externalUserId: 'bob', text: VOICES.high.phrase });
    // Ada speaks 0.5 s into her file; Bob 0.5 s into his, which begins 3 s later.
    expect(first.start).toBeCloseTo(0.5, 0);
    expect(second.start).toBeCloseTo(3.5, 0);
    expect(transcript.text).toBe(`Ada Lovelace: ${VOICES.low.phrase}\nBob Byron: ${VOICES.high.phrase}`);
  });

  it('serves WebVTT, SRT and text by ?format= and by Accept, as downloads that parse', async () => {
    const vtt = await api('GET', `/api/v1/transcripts/${transcript.id}?format=vtt`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(vtt.headers.get('content-disposition')).toBe(`attachment; filename="transcript-${transcript.id}.vtt"`);
    const cues = parseVtt(vtt.text);
    expect(cues.map((c) => [c.speaker, c.text])).toEqual([
      ['Ada Lovelace', VOICES.low.phrase],
      ['Bob Byron', VOICES.high.phrase],
    ]);
    for (const [i, c] of cues.entries()) {
      expect(c.id).toBe(i + 1);
      expect(c.end).toBeGreaterThan(c.start);
      if (i) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1].start);
    }

    const srt = await api('GET', `/api/v1/transcripts/${transcript.id}`, undefined, { accept: 'application/x-subrip' });
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(parseSrt(srt.text).map((c) => [c.speaker, c.text])).toEqual([
      ['Ada Lovelace', VOICES.low.phrase],
      ['Bob Byron', VOICES.high.phrase],
    ]);
    const txt = await api('GET', `/api/v1/transcripts/${transcript.id}`, undefined, { accept: 'text/plain' });
    expect(txt.text).toBe(
      `[00:00:00] Ada Lovelace: ${VOICES.low.phrase}\n[00:00:03] Bob Byron: ${VOICES.high.phrase}\n`,
    );
    const json = await api('GET', `/api/v1/transcripts/${transcript.id}`, undefined, { accept: 'application/json' });
    expect(json.body.id).toBe(transcript.id);
    expect((await api('GET', `/api/v1/transcripts/${transcript.id}?format=doc`)).status).toBe(400);
  });

  it('says so with transcript.ready (the room and session added), then summarises it through chat completions: summary.ready', async () => {
    const ready = await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'transcript.ready' } });
    expect(ready.map((e) => e.data)).toContainEqual({
      transcriptId: transcript.id,
      recordingId: null,
      roomId: room.id,
      sessionId: transcript.sessionId,
      source: 'PARTICIPANT_RECORDINGS',
    });
    let summaries: Record<string, any>[] = [];
    await expect
      .poll(
        async () => {
          summaries = (await api('GET', `/api/v1/transcripts/${transcript.id}/summaries`)).body.data;
          return summaries[0]?.status;
        },
        { timeout: 30_000 },
      )
      .toBe('COMPLETED');
    expect(summaries[0]).toMatchObject({
      kind: 'general',
      language: 'english',
      ...CANNED_SUMMARY,
      provider: new URL(stub.baseUrl).host,
      model: 'llama-3.1-8b',
    });
    const asked = stub.chats.find((c) => c.body.messages.some((m) => m.content.includes(VOICES.low.phrase)))!;
    expect(asked.status).toBe(200);
    expect(asked.authorization).toBe('Bearer sk-test');
    expect(asked.body.model).toBe('llama-3.1-8b');
    expect(asked.body.response_format).toEqual({ type: 'json_object' });
    const [system, user] = asked.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/JSON/);
    expect(system.content).toContain('(english)');
    expect(user).toEqual({
      role: 'user',
      content: `The transcript, one line per turn ("Name: words"):\nAda Lovelace: ${VOICES.low.phrase}\nBob Byron: ${VOICES.high.phrase}`,
    });
    const events = await db().event.findMany({ where: { tenantId: t.tenant.id, name: 'summary.ready' } });
    expect(events.map((e) => e.data)).toContainEqual({
      summaryId: summaries[0].id,
      transcriptId: transcript.id,
      roomId: room.id,
      sessionId: transcript.sessionId,
      kind: 'general',
    });
    expect((await api('GET', `/api/v1/summaries/${summaries[0].id}`)).body.id).toBe(summaries[0].id);
  }, 45_000);

  it('regenerates on request with a kind and an instruction of the tenant’s own; counts both in usage', async () => {
    const res = await api('POST', `/api/v1/transcripts/${transcript.id}/summaries`, {
      kind: 'standup',
      instruction: 'Name the fruit.',
    });
    expect(res.status, res.text).toBe(202);
    const done = await settled(res.body.id, 'summaries');
    expect(done).toMatchObject({ status: 'COMPLETED', kind: 'standup', instruction: 'Name the fruit.' });
    const system = stub.chats.at(-1)!.body.messages[0].content;
    expect(system).toMatch(/stand-up/);
    expect(system).toContain("The organiser's own instruction: Name the fruit.");
    await expect
      .poll(async () => (await api('GET', '/api/v1/tenant/usage')).body.monthToDate, { timeout: 15_000 })
      .toMatchObject({ transcriptionMinutes: expect.any(Number), summaries: 2 });
    expect((await api('GET', '/api/v1/tenant/usage')).body.monthToDate.transcriptionMinutes).toBeGreaterThanOrEqual(1);
  }, 45_000);
});

describe('the live transcript from the captions', () => {
  it('keeps the captions worker’s final segments under each speaker (its media token only), and completes with the room', async () => {
    const room = await aiRoom();
    const ada = await inCall(room, 'ada', 'Ada Lovelace');
    const bob = await inCall(room, 'bob', 'Bob Byron');
    expect((await api('POST', '/api/v1/captions/start', { roomId: room.id, language: 'en' })).status).toBe(200);
    const [live] = await transcriptsOf(room.id);
    expect(live).toMatchObject({ source: 'CAPTIONS', status: 'LIVE', language: 'en', segments: [] });
    const dispatch = [...suite.media.dispatches.values()].at(-1)!;
    expect(JSON.parse(dispatch.metadata)).toMatchObject({
      segmentsUrl: expect.stringMatching(/\/api\/v1\/captions\/segments$/),
    });

    const token = async (identity: string) => {
      const at = new AccessToken(suite.media.apiKey, suite.media.apiSecret, { identity, ttl: 600 });
      at.addGrant({ roomJoin: true, room: room.mediaRoomName, hidden: true, agent: true });
      return at.toJwt();
    };
    const start = Date.now();
    const body = {
      segments: [
        {
          id: 'TR_a-1',
          participantIdentity: ada.identity,
          text: VOICES.low.phrase,
          startedAt: new Date(start + 1000).toISOString(),
          endedAt: new Date(start + 2600).toISOString(),
        },
        {
          id: 'TR_b-1',
          participantIdentity: bob.identity,
          text: VOICES.high.phrase,
          startedAt: new Date(start + 3000).toISOString(),
          endedAt: new Date(start + 4500).toISOString(),
        },
      ],
    };
    const send = (bearer?: string) =>
      suite.api('POST', '/api/v1/captions/segments', { body, ...(bearer ? { bearer } : {}) });
    expect((await send()).status).toBe(401);
    expect((await send(ada.token)).status).toBe(401); // a participant's token is no agent's
    expect((await send(await token('captions-AD_other'))).status).toBe(401); // another dispatch
    const forged = new AccessToken(suite.media.apiKey, 'not-the-secret-not-the-secret-xx', {
      identity: `captions-${dispatch.id}`,
    });
    forged.addGrant({ roomJoin: true, room: room.mediaRoomName });
    expect((await send(await forged.toJwt())).status).toBe(401);
    const agent = await token(`captions-${dispatch.id}`);
    expect((await send(agent)).body).toEqual({ accepted: 2, dropped: 0 });
    expect((await send(agent)).body).toEqual({ accepted: 0, dropped: 0 }); // sent twice, kept once

    const now = (await api('GET', `/api/v1/transcripts/${live.id}`)).body;
    expect(now.status).toBe('LIVE');
    expect(now.segments.map((s: any) => [s.speaker, s.externalUserId, s.text])).toEqual([
      ['Ada Lovelace', 'ada', VOICES.low.phrase],
      ['Bob Byron', 'bob', VOICES.high.phrase],
    ]);
    const vtt = parseVtt((await api('GET', `/api/v1/transcripts/${live.id}?format=vtt`)).text);
    expect(vtt.map((c) => c.speaker)).toEqual(['Ada Lovelace', 'Bob Byron']);

    expect((await api('POST', `/api/v1/rooms/${room.id}/end`)).status).toBe(200);
    const done = (await api('GET', `/api/v1/transcripts/${live.id}`)).body;
    expect(done).toMatchObject({ status: 'COMPLETED', source: 'CAPTIONS', recordingId: null });
    expect(done.segments.map((s: any) => s.speaker)).toEqual(['Ada Lovelace', 'Bob Byron']);
    expect(await db().liveTranscriptSegment.count({ where: { transcriptId: live.id } })).toBe(0);
    // After the end, segments are no longer kept.
    expect((await send(agent)).body).toEqual({ accepted: 0, dropped: 2 });
    const [summary] = (await api('GET', `/api/v1/transcripts/${live.id}/summaries`)).body.data;
    expect((await settled(summary.id, 'summaries')).status).toBe('COMPLETED');
  }, 60_000);

  it('is bounded: past its segments limit, what the worker sends is dropped and counted', async () => {
    const room = await aiRoom();
    const ada = await inCall(room, 'ada', 'Ada');
    expect((await api('POST', '/api/v1/captions/start', { roomId: room.id })).status).toBe(200);
    const dispatch = [...suite.media.dispatches.values()].at(-1)!;
    const at = new AccessToken(suite.media.apiKey, suite.media.apiSecret, { identity: `captions-${dispatch.id}` });
    at.addGrant({ roomJoin: true, room: room.mediaRoomName });
    const agent = await at.toJwt();
    const batch = (from: number) => ({
      segments: Array.from({ length: LIVE_TRANSCRIPT_LIMITS.maxBatch }, (_, i) => ({
        id: `s-${from + i}`,
        participantIdentity: ada.identity,
        text: `line ${from + i}`,
        startedAt: new Date(Date.now() + i).toISOString(),
        endedAt: new Date(Date.now() + i + 1).toISOString(),
      })),
    });
    const [live] = await transcriptsOf(room.id);
    // Filled to one batch short of the bound (as a long meeting would), then two batches more.
    const fill = LIVE_TRANSCRIPT_LIMITS.maxSegments - LIVE_TRANSCRIPT_LIMITS.maxBatch;
    await db().liveTranscriptSegment.createMany({
      data: Array.from({ length: fill }, (_, i) => ({
        transcriptId: live.id,
        key: `old-${i}`,
        speakerIdentity: ada.identity,
        speakerName: 'Ada',
        text: 'earlier',
        startedAt: new Date(),
        endedAt: new Date(),
      })),
    });
    const send = (b: unknown) => suite.api('POST', '/api/v1/captions/segments', { body: b, bearer: agent });
    expect((await send(batch(0))).body).toEqual({ accepted: LIVE_TRANSCRIPT_LIMITS.maxBatch, dropped: 0 });
    expect((await send(batch(1000))).body).toEqual({ accepted: 0, dropped: LIVE_TRANSCRIPT_LIMITS.maxBatch });
    expect(await db().liveTranscriptSegment.count({ where: { transcriptId: live.id } })).toBe(
      LIVE_TRANSCRIPT_LIMITS.maxSegments,
    );
    // One request holds at most a batch; a segment's text is bounded.
    expect((await send({ segments: [...batch(0).segments, ...batch(0).segments] })).status).toBe(400);
    expect((await send({ segments: [{ ...batch(0).segments[0], text: 'x'.repeat(2_001) }] })).status).toBe(400);
  }, 60_000);
});

describe('provider failures', () => {
  /** A completed composite recording of Ada's voice, and its transcript once it settles. */
  async function recordedRoom() {
    const room = await aiRoom();
    await inCall(room, 'ada', 'Ada');
    const rec = await api('POST', `/api/v1/rooms/${room.id}/recordings/start`, { audioOnly: true });
    expect(rec.status, rec.text).toBe(201);
    await egressCompletes(rec.body.id, room.mediaRoomName, voiceRecording('low', 'ogg'), new Date());
    const [queued] = await transcriptsOf(room.id);
    return { room, transcript: await settled(queued.id, 'transcripts') };
  }

  it('a provider error leaves the transcript FAILED with its reason and a retry due; the retry, when due, completes it', async () => {
    stub.fail('transcriptions', 503, 'The engine is currently overloaded, please try again later');
    const started = Date.now();
    const { transcript } = await recordedRoom();
    expect(transcript).toMatchObject({
      status: 'FAILED',
      error: 'speech-to-text answered 503: The engine is currently overloaded, please try again later',
      attempts: 1,
    });
    const due = new Date(transcript.nextAttemptAt).getTime();
    expect(due - started).toBeGreaterThanOrEqual(TRANSCRIPT_RETRY.firstDelaySeconds * 1000 - 1000);
    // Not before it is due; then (the clock moved past it) it runs and completes.
    expect(await runDueTranscripts(new Date(due - 5_000))).toBe(0);
    await runDueTranscripts(new Date(due + 1_000));
    const after = (await api('GET', `/api/v1/transcripts/${transcript.id}`)).body;
    expect(after).toMatchObject({ status: 'COMPLETED', attempts: 2, error: null, nextAttemptAt: null });
    expect(after.segments[0].text).toBe(VOICES.low.phrase);
  }, 60_000);

  it('a refusal that would be the same again (a file the provider rejects) is not retried', async () => {
    stub.fail('transcriptions', 400, 'Invalid file format.');
    const { transcript } = await recordedRoom();
    expect(transcript).toMatchObject({
      status: 'FAILED',
      error: 'speech-to-text answered 400: Invalid file format.',
      nextAttemptAt: null,
    });
  }, 60_000);

  it('a provider that does not answer in time: FAILED, "did not answer within 5 s", retried later', async () => {
    stub.delay('transcriptions', 8_000);
    const { transcript } = await recordedRoom();
    expect(transcript).toMatchObject({
      status: 'FAILED',
      error: 'the speech-to-text service did not answer within 5 s',
      nextAttemptAt: expect.any(String),
    });
  }, 60_000);

  it('the language model’s errors and timeouts: the summary FAILED with the reason, retried with backoff until it completes', async () => {
    const { transcript } = await recordedRoom();
    expect(transcript.status).toBe('COMPLETED');
    // The faults are for this summary's requests alone (other summaries may be made meanwhile).
    const marker = 'Mention the marker 7f3a.';
    const ours = ({ chat }: { chat?: { messages: { content: string }[] } }) =>
      !!chat?.messages[0].content.includes(marker);
    stub.fail('chat', 429, 'Rate limit reached for requests', { when: ours });
    const asked = await api('POST', `/api/v1/transcripts/${transcript.id}/summaries`, { instruction: marker });
    const failed = await settled(asked.body.id, 'summaries');
    expect(failed).toMatchObject({
      status: 'FAILED',
      error: 'the language model answered 429: Rate limit reached for requests',
      attempts: 1,
      nextAttemptAt: expect.any(String),
    });
    stub.delay('chat', 8_000, { when: ours });
    await runDueSummaries(new Date(new Date(failed.nextAttemptAt).getTime() + 1_000));
    const slow = (await api('GET', `/api/v1/summaries/${failed.id}`)).body;
    expect(slow).toMatchObject({
      status: 'FAILED',
      error: 'the language model did not answer within 5 s',
      attempts: 2,
    });
    // Each retry waits twice as long as the one before.
    expect(new Date(slow.nextAttemptAt).getTime() - Date.now()).toBeGreaterThan(50_000);
    await runDueSummaries(new Date(new Date(slow.nextAttemptAt).getTime() + 1_000));
    expect((await api('GET', `/api/v1/summaries/${failed.id}`)).body).toMatchObject({
      status: 'COMPLETED',
      attempts: 3,
    });
  }, 60_000);
});

describe('a transcript longer than the model’s context', () => {
  it('is summarised in parts, each request within the context, whose notes are then combined', async () => {
    const room = await aiRoom();
    const lines = Array.from({ length: 160 }, (_, i) => ({
      start: i * 5,
      end: i * 5 + 4,
      text: `Item ${i}: we reviewed the figures for region ${i % 7} and agreed to follow up next week.`,
      speaker: i % 2 ? 'Bob Byron' : 'Ada Lovelace',
    }));
    const long = await db().transcript.create({
      data: {
        tenantId: t.tenant.id,
        roomId: room.id,
        source: 'CAPTIONS',
        status: 'COMPLETED',
        language: 'en',
        segments: lines,
        text: lines.map((l) => `${l.speaker}: ${l.text}`).join('\n'),
        completedAt: new Date(),
      },
    });
    const before = stub.chats.length;
    const res = await api('POST', `/api/v1/transcripts/${long.id}/summaries`, { kind: 'general' });
    expect(res.status, res.text).toBe(202);
    const done = await settled(res.body.id, 'summaries', 60_000);
    expect(done.status, done.error).toBe('COMPLETED');
    const asked = stub.chats.slice(before);
    const transcriptTokens = stubTokens(lines.map((l) => `${l.speaker}: ${l.text}`).join('\n'));
    expect(transcriptTokens).toBeGreaterThan(CONTEXT * 2);
    expect(asked.length).toBeGreaterThanOrEqual(4);
    // Every request fitted: the stub refuses one over the context (400 context_length_exceeded).
    for (const c of asked) {
      expect(c.status).toBe(200);
      expect(c.promptTokens + (c.body.max_tokens ?? 0)).toBeLessThanOrEqual(CONTEXT);
    }
    const parts = asked.filter((c) => /^Part \d+ of \d+\./.test(c.body.messages[1].content));
    expect(parts.length).toBeGreaterThanOrEqual(3);
    // Every line was in one part, in order.
    const sentLines = parts.flatMap((c) => c.body.messages[1].content.split('\n').slice(1));
    expect(sentLines.join('\n')).toBe(lines.map((l) => `${l.speaker}: ${l.text}`).join('\n'));
    const combine = asked.at(-1)!;
    expect(combine.body.messages[0].content).toMatch(/combine the notes/);
    expect(JSON.parse(combine.body.messages[1].content)).toEqual(expect.arrayContaining([CANNED_SUMMARY]));
  }, 90_000);
});

describe('refusals', () => {
  /** A COMPLETED transcript row of a room made with these settings. */
  async function transcriptIn(tenant: typeof t, roomSettings: Record<string, unknown>) {
    const room = await db().room.create({
      data: {
        tenantId: tenant.tenant.id,
        name: 'r',
        slug: `r-${Math.random().toString(36).slice(2)}`,
        mediaRoomName: `m-${Math.random().toString(36).slice(2)}`,
        createdByExternalId: 'host',
        ...roomSettings,
      },
    });
    const rec = await db().recording.create({
      data: {
        tenantId: tenant.tenant.id,
        roomId: room.id,
        mediaEgressId: `EG_${Math.random().toString(36).slice(2)}`,
        status: 'COMPLETED',
        storageKey: 'recordings/x.ogg',
      },
    });
    const tr = await db().transcript.create({
      data: { tenantId: tenant.tenant.id, roomId: room.id, recordingId: rec.id, status: 'COMPLETED', segments: [] },
    });
    return { room, recording: rec, transcript: tr };
  }
  const code = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

  it('AI off and end-to-end encryption: no transcript, no summary (FEATURE_DISABLED); an E2EE room records no participant', async () => {
    for (const settings of [{ enableAiFeatures: false }, { enableAiFeatures: true, enableE2EE: true }]) {
      const { recording, transcript } = await transcriptIn(t, settings);
      expect(code(await api('POST', '/api/v1/transcripts', { recordingIds: [recording.id] }))).toEqual([
        403,
        'FEATURE_DISABLED',
      ]);
      expect(code(await api('POST', `/api/v1/transcripts/${transcript.id}/summaries`, {}))).toEqual([
        403,
        'FEATURE_DISABLED',
      ]);
    }
    const e2ee = await aiRoom({ enableE2EE: true, enableAiFeatures: false });
    await inCall(e2ee, 'ada', 'Ada');
    expect(
      code(
        await api('POST', `/api/v1/rooms/${e2ee.id}/recordings/start`, {
          participant: { externalUserId: 'ada' },
          audioOnly: true,
        }),
      ),
    ).toEqual([403, 'FEATURE_DISABLED']);
    expect(code(await api('POST', '/api/v1/captions/start', { roomId: e2ee.id }))).toEqual([403, 'FEATURE_DISABLED']);
  });

  it('a test-mode tenant: TEST_MODE_MEDIA_DISABLED, as for other billable media', async () => {
    const sandbox = await seedTenant({ isTestMode: true });
    const { recording, transcript } = await transcriptIn(sandbox, { enableAiFeatures: true });
    const as = (method: string, url: string, body: unknown) => suite.api(method, url, { key: sandbox.key, body });
    expect(code(await as('POST', '/api/v1/transcripts', { recordingIds: [recording.id] }))).toEqual([
      403,
      'TEST_MODE_MEDIA_DISABLED',
    ]);
    expect(code(await as('POST', `/api/v1/transcripts/${transcript.id}/summaries`, {}))).toEqual([
      403,
      'TEST_MODE_MEDIA_DISABLED',
    ]);
  });

  it('the plan: no summaries left this month is PLAN_LIMIT_REACHED', async () => {
    const capped = await seedTenant({
      plan: 'growth',
      entitlementOverrides: { summariesPerMonth: 0, transcriptionMinutesPerMonth: 0 },
    });
    const { recording, transcript } = await transcriptIn(capped, { enableAiFeatures: true });
    const as = (method: string, url: string, body: unknown) => suite.api(method, url, { key: capped.key, body });
    expect(code(await as('POST', `/api/v1/transcripts/${transcript.id}/summaries`, {}))).toEqual([
      403,
      'PLAN_LIMIT_REACHED',
    ]);
    expect(code(await as('POST', '/api/v1/transcripts', { recordingIds: [recording.id] }))).toEqual([
      403,
      'PLAN_LIMIT_REACHED',
    ]);
  });

  it('an oversized instruction is 400 VALIDATION_FAILED; settings take a kind and a bounded instruction', async () => {
    const { transcript } = await transcriptIn(t, { enableAiFeatures: true });
    const long = 'x'.repeat(1_001);
    expect(code(await api('POST', `/api/v1/transcripts/${transcript.id}/summaries`, { instruction: long }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(code(await api('PUT', '/api/v1/summaries/settings', { kind: 'interview', instruction: long }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(code(await api('PUT', '/api/v1/summaries/settings', { kind: 'minutes' }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    const put = await api('PUT', '/api/v1/summaries/settings', { kind: 'interview', instruction: 'x'.repeat(1_000) });
    expect(put.body).toEqual({ kind: 'interview', instruction: 'x'.repeat(1_000), configured: true });
    expect((await api('GET', '/api/v1/summaries/settings')).body.kind).toBe('interview');
    await api('PUT', '/api/v1/summaries/settings', { kind: 'general' });
  });

  it('an unfinished recording or transcript: INVALID_STATE; another tenant’s: NOT_FOUND', async () => {
    const { transcript } = await transcriptIn(t, { enableAiFeatures: true });
    await db().transcript.update({ where: { id: transcript.id }, data: { status: 'PROCESSING' } });
    expect(code(await api('POST', `/api/v1/transcripts/${transcript.id}/summaries`, {}))).toEqual([
      409,
      'INVALID_STATE',
    ]);
    expect(code(await api('GET', `/api/v1/transcripts/${transcript.id}?format=srt`))).toEqual([409, 'INVALID_STATE']);
    const other = await seedTenant();
    expect((await suite.api('GET', `/api/v1/transcripts/${transcript.id}`, { key: other.key })).status).toBe(404);
  });
});
