import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, chromium, type Browser, type Page } from '@playwright/test';
import { startCaptionsWorker } from '../agents/captions/worker';
import { createSpeechToText } from '../lib/stt';
import { verifyWebhook } from '../sdk/src/webhooks';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { startOpenAiStub } from '../test/notes/support/openai-server';
import { decodeAudio, recognise, VOICES, voiceWav, type Voice } from '../test/notes/support/voices';
import { ffmpegBin, probe } from '../test/support/media-probe';
import { createTenant, type TenantApi } from './support/tenant';
import { person } from './support/call';

/**
 * Meeting notes of a real call on the development media server (issue 44): Ada and Bob speak
 * different phrases in different voices (espeak-ng through Chromium's fake microphone). With
 * captions on, Convene's captions worker transcribes each speaker and the live transcript puts
 * each phrase under the right person; after per-participant recordings (each one's microphone by
 * track egress), the post-meeting transcript does too.
 * Its WebVTT and SRT downloads parse, and summary.ready arrives signed with the summary stored.
 * The speech-to-text servers (the worker's, and the app's from global-setup) are the local
 * OpenAI-compatible stub that tells the two voices apart by pitch (test/notes/support).
 */
const mediaEnv = JSON.parse(process.env.E2E_MEDIA_ENV ?? '{}') as Record<string, string>;

test.describe.configure({ timeout: 240_000 });

let tenant: TenantApi;
test.beforeAll(async () => {
  tenant = await createTenant('Notes', { plan: 'growth' });
});

/**
 * Into the call as support/call.ts's enter does; how long the join may take is not what this spec
 * measures (the join specs do), so it waits up to 30 s for the call (a machine busy with other suites).
 */
async function enter(page: Page, joinUrl: string) {
  await page.goto(joinUrl);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.locator('.lk-room-container')).toBeVisible({ timeout: 30_000 });
}

/**
 * A GET made while polling, asked again once when the connection it reused was closed under it
 * (undici's "other side closed": a kept-alive socket the server had just let go).
 */
async function polled<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (!/fetch failed/.test((err as Error).message)) throw err;
    return request();
  }
}

/** Chromium whose fake microphone says the voice's phrase again and again. */
function speakingBrowser(voice: Voice): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${voiceWav(voice).file}`,
      '--autoplay-policy=no-user-gesture-required',
      '--disable-gpu',
    ],
  });
}

const time = (s: string) => {
  const [h, m, rest] = s.replace(',', '.').split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(rest);
};

/** WebVTT as a player reads it: the header, then numbered cues whose times increase, with speakers. */
function parseVtt(text: string) {
  expect(text.startsWith('WEBVTT\n\n')).toBe(true);
  return text
    .slice(8)
    .trim()
    .split('\n\n')
    .map((block) => {
      const [, timing, ...body] = block.split('\n');
      const [start, end] = timing.split(' --> ').map(time);
      const [, speaker, words] = /^<v ([^>]+)>(.*)<\/v>$/.exec(body.join(' ')) ?? [];
      return { start, end, speaker, words };
    });
}
function parseSrt(text: string) {
  return text
    .trim()
    .split('\n\n')
    .map((block) => {
      const [, timing, ...body] = block.split('\n');
      const [start, end] = timing.split(' --> ').map(time);
      const [, speaker, words] = /^([^:]+): (.*)$/.exec(body.join(' ')) ?? [];
      return { start, end, speaker, words };
    });
}

/**
 * Whether `text` is the person's phrase, said once or more (a caption segment can hold two
 * sayings when the pause between them was short) — and nothing of the other person's.
 */
const saysOwnPhrase = (speaker: string | undefined, text: string | undefined) => {
  const phrase = speaker === 'Ada' ? VOICES.low.phrase : VOICES.high.phrase;
  return new RegExp(`^${phrase}( ${phrase})*$`).test(text ?? '');
};

/** Every cue under a name holds that person's phrase, and both people speak; times increase. */
function expectAttributed(cues: { start: number; end: number; speaker?: string; words?: string }[]) {
  expect(cues.length).toBeGreaterThanOrEqual(2);
  for (const [i, c] of cues.entries()) {
    expect(c.end).toBeGreaterThan(c.start);
    if (i) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1].start);
    expect(['Ada', 'Bob']).toContain(c.speaker);
    expect(saysOwnPhrase(c.speaker, c.words), `${c.speaker}: ${c.words}`).toBe(true);
  }
  expect(new Set(cues.map((c) => c.speaker))).toEqual(new Set(['Ada', 'Bob']));
}

test('two people speak: the live and the post-meeting transcripts say who said what; VTT and SRT parse; summary.ready arrives signed', async () => {
  const stt = await startOpenAiStub();
  const worker = startCaptionsWorker({
    url: mediaEnv.LIVEKIT_URL,
    apiKey: mediaEnv.LIVEKIT_API_KEY,
    apiSecret: mediaEnv.LIVEKIT_API_SECRET,
    stt: createSpeechToText({ baseUrl: stt.baseUrl, model: 'whisper-1' }),
    agentName: 'convene-captions',
    pollMs: 500,
  });
  const hook = await startWebhookReceiver();
  const [adaBrowser, bobBrowser] = [await speakingBrowser('low'), await speakingBrowser('high')];
  const api = tenant.api;
  try {
    expect(
      (
        await api('PATCH', '/api/v1/tenant/webhook', {
          webhookUrl: hook.url,
          webhookEvents: ['summary.ready', 'transcript.ready'],
        })
      ).status,
    ).toBe(200);
    const secret = (await api('POST', '/api/v1/tenant/webhook-secret/rotate', { overlapSeconds: 0 })).body
      .webhookSecret as string;
    const roomId = await tenant.room({ enableAiFeatures: true, enableRecording: true });
    const ada = await person(adaBrowser);
    const bob = await person(bobBrowser);
    await enter(ada, await tenant.joinUrl(roomId, 'Ada'));
    await enter(bob, await tenant.joinUrl(roomId, 'Bob'));

    // Captions on: the worker transcribes each speaker, and keeps each final segment as the live transcript.
    expect((await api('POST', '/api/v1/captions/start', { roomId, language: 'en' })).status).toBe(200);
    const live = async () =>
      (await polled(() => api('GET', `/api/v1/transcripts?roomId=${roomId}&source=CAPTIONS`))).body.data[0] as {
        id: string;
        status: string;
        segments: { speaker: string; text: string }[];
      };
    await expect
      .poll(async () => new Set((await live()).segments.map((s) => s.speaker)).size, { timeout: 60_000 })
      .toBe(2);
    for (const s of (await live()).segments)
      expect(saysOwnPhrase(s.speaker, s.text), `${s.speaker}: ${s.text}`).toBe(true);

    // Per-participant recordings of each one's microphone (track egress): what a speaker transcript
    // needs. (A camera-and-microphone participant egress is recorded in test/notes; at 720p on a
    // machine this busy its encoder drops most frames, with their audio.)
    const adaRec = await api('POST', `/api/v1/rooms/${roomId}/recordings/start`, {
      participant: { externalUserId: 'ada' },
      audioOnly: true,
    });
    expect(adaRec.status, JSON.stringify(adaRec.body)).toBe(201);
    const bobRec = await api('POST', `/api/v1/rooms/${roomId}/recordings/start`, {
      participant: { externalUserId: 'bob' },
      audioOnly: true,
    });
    expect(bobRec.status, JSON.stringify(bobRec.body)).toBe(201);
    for (const id of [adaRec.body.id, bobRec.body.id])
      await expect
        .poll(async () => (await api('GET', `/api/v1/recordings/${id}`)).body.status, { timeout: 30_000 })
        .toBe('ACTIVE');
    // Each phrase is said a few times while they record (about 3 s a saying).
    await ada.waitForTimeout(10_000);

    // The meeting ends: the recordings complete and are transcribed per speaker; the live transcript completes.
    expect((await api('POST', `/api/v1/rooms/${roomId}/end`)).status).toBe(200);
    for (const id of [adaRec.body.id, bobRec.body.id])
      await expect
        .poll(async () => (await api('GET', `/api/v1/recordings/${id}`)).body.status, { timeout: 60_000 })
        .toBe('COMPLETED');
    const after = async () =>
      (await polled(() => api('GET', `/api/v1/transcripts?roomId=${roomId}&source=PARTICIPANT_RECORDINGS`))).body
        .data[0] as { id: string; status: string; error: string | null } | undefined;
    await expect.poll(async () => (await after())?.status, { timeout: 90_000 }).toBe('COMPLETED');
    const meeting = (await after())!;
    // What each recording holds, as the stub hears it (printed: on a busy machine an encoder that
    // falls behind drops frames with their audio).
    for (const [who, id] of [
      ['Ada', adaRec.body.id],
      ['Bob', bobRec.body.id],
    ]) {
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'convene-notes-e2e-')), `${who}.ogg`);
      writeFileSync(file, Buffer.from(await (await tenant.get(`/api/v1/recordings/${id}/download`)).arrayBuffer()));
      const samples = decodeAudio(ffmpegBin, file);
      console.log(
        `${who}'s recording: ${probe(file).durationSeconds} s, heard ${JSON.stringify(samples && recognise(samples))}`,
      );
    }
    console.log(
      `post-meeting transcript: ${JSON.stringify((await api('GET', `/api/v1/transcripts/${meeting.id}`)).body)}`,
    );
    expect((await live()).status).toBe('COMPLETED');

    for (const transcriptId of [meeting.id, (await live()).id]) {
      const vtt = await tenant.get(`/api/v1/transcripts/${transcriptId}?format=vtt`);
      expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
      expectAttributed(parseVtt(await vtt.text()));
      const srt = await tenant.get(`/api/v1/transcripts/${transcriptId}?format=srt`);
      expect(srt.headers.get('content-disposition')).toBe(`attachment; filename="transcript-${transcriptId}.srt"`);
      expectAttributed(parseSrt(await srt.text()));
    }

    // summary.ready, signed with the tenant's secret, for the post-meeting transcript; the summary is stored.
    const signed = async () => {
      for (const r of hook.received) {
        const event = await verifyWebhook(r.body, r.headers, secret);
        if (event.event === 'summary.ready' && (event.data as { transcriptId: string }).transcriptId === meeting.id)
          return event.data as { summaryId: string; roomId: string };
      }
      return undefined;
    };
    await expect.poll(signed, { timeout: 60_000 }).toMatchObject({ roomId });
    const summary = (await api('GET', `/api/v1/summaries/${(await signed())!.summaryId}`)).body;
    expect(summary).toMatchObject({ status: 'COMPLETED', transcriptId: meeting.id, overview: expect.any(String) });
    expect(summary.actionItems.length).toBeGreaterThan(0);
  } finally {
    await api('PATCH', '/api/v1/tenant/webhook', { webhookUrl: null, webhookEvents: null });
    await worker.stop();
    await adaBrowser.close();
    await bobBrowser.close();
    await hook.close();
    await stt.close();
  }
});
