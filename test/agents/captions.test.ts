/**
 * The captions worker against the development media server, a local OpenAI-compatible
 * speech-to-text server and real browsers: Chromium's fake microphone speaks a phrase (espeak-ng),
 * the worker joins on the captions dispatch as a hidden agent, cuts the speech out, sends it as
 * WAV, and the listening browser receives the fixed text as a transcription of the speaker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from '@playwright/test';
import { AccessToken, AgentDispatchClient } from 'livekit-server-sdk';
import { dispose } from '@livekit/rtc-node';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { createSpeechToText } from '@/lib/stt';
import { startCaptionsWorker, type CaptionsWorker } from '@/agents/captions/worker';
import { startSttServer, type SttServer } from '../support/stt-server';
import { serveLiveKitClientPage } from '../support/livekit-page';
import { launchSpeakingChromium } from '../support/speech';

let media: DevMediaServer;
let stt: SttServer;
let worker: CaptionsWorker;
let browser: Browser;
let pages: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let dispatches: AgentDispatchClient;

let speechSeconds = 0;

beforeAll(async () => {
  media = await startDevMediaServer();
  stt = await startSttServer('hello world');
  worker = startCaptionsWorker({
    url: media.url,
    apiKey: media.apiKey,
    apiSecret: media.apiSecret,
    stt: createSpeechToText({ baseUrl: stt.baseUrl, apiKey: 'stt-key', model: 'whisper-1' }),
    agentName: 'convene-captions',
    pollMs: 250,
  });
  dispatches = new AgentDispatchClient(media.httpUrl, media.apiKey, media.apiSecret);
  pages = await serveLiveKitClientPage();
  ({ browser, speechSeconds } = await launchSpeakingChromium('hello world, this is a caption test'));
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await browser?.close();
  await pages?.close();
  await stt?.close();
  await media?.close();
  await dispose();
});

async function join(room: string, identity: string, speak: boolean): Promise<Page> {
  const at = new AccessToken(media.apiKey, media.apiSecret, { identity, name: identity });
  at.addGrant({ roomJoin: true, room, canPublish: true, canSubscribe: true, canPublishData: true });
  const page = await browser.newPage();
  await page.goto(pages.url);
  await page.evaluate(
    async ({ url, jwt, speak }) => {
      const w = window as any;
      const room = new w.LivekitClient.Room();
      w.room = room;
      w.captions = [];
      room.on('transcriptionReceived', (segments: any[], participant: any) =>
        w.captions.push(...segments.map((s) => ({ text: s.text, final: s.final, speaker: participant?.identity }))),
      );
      await room.connect(url, jwt);
      if (speak) await room.localParticipant.setMicrophoneEnabled(true);
    },
    { url: media.url, jwt: await at.toJwt(), speak },
  );
  return page;
}

describe('captions worker', () => {
  it('joins on the dispatch as a hidden agent, transcribes the speaker as WAV segments, the other browser gets the text; leaves when the dispatch is deleted', async () => {
    const room = 'captions-room';
    const speaker = await join(room, 'ada', true);
    const listener = await join(room, 'bob', false);
    const dispatch = await dispatches.createDispatch(room, 'convene-captions', {
      metadata: JSON.stringify({ language: 'en', roomId: 'rm_1' }),
    });

    await expect
      .poll(() => listener.evaluate(() => (window as any).captions), { timeout: 20_000, interval: 250 })
      .toContainEqual({ text: 'hello world', final: true, speaker: 'ada' });

    const agent = [...media.rooms.get(room)!.participants.values()].find((p) => p.identity.startsWith('captions-'))!;
    expect(agent.permission).toMatchObject({ hidden: true, canPublish: false });
    // Hidden: neither browser lists it.
    for (const page of [speaker, listener])
      expect(await page.evaluate(() => [...(window as any).room.remoteParticipants.keys()])).not.toContain(
        agent.identity,
      );

    // What the speech-to-text server was sent: the speech, cut at its pauses, as 16 kHz WAV. The
    // worker may join mid-phrase, so the first segment can be a tail: wait for a whole loop.
    await expect.poll(() => stt.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    for (const request of stt.received)
      expect(request).toMatchObject({
        path: '/v1/audio/transcriptions',
        authorization: 'Bearer stt-key',
        model: 'whisper-1',
        responseFormat: 'verbose_json',
        language: 'en',
        filename: 'speech.wav',
        contentType: 'audio/wav',
      });
    const seconds = stt.received.map(({ audio }) => {
      expect(audio.toString('ascii', 0, 4)).toBe('RIFF');
      expect(audio.readUInt32LE(24)).toBe(16_000);
      return audio.readUInt32LE(40) / 2 / 16_000;
    });
    // A whole phrase with its pre-roll and kept pause, and never two loops run together.
    expect(Math.max(...seconds)).toBeGreaterThan(speechSeconds * 0.8);
    expect(Math.max(...seconds)).toBeLessThan(speechSeconds + 1);

    await dispatches.deleteDispatch(dispatch.id, room);
    await expect
      .poll(() => [...media.rooms.get(room)!.participants.keys()], { timeout: 10_000 })
      .not.toContain(agent.identity);
    const leftAt = Date.now();
    // The phrase loops on, but nothing more is transcribed (a request already under way may still land).
    await speaker.waitForTimeout(3000);
    expect(stt.received.filter((r) => r.at > leftAt + 1000)).toEqual([]);
    await speaker.close();
    await listener.close();
  }, 60_000);
});
