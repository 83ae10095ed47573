import { test, expect } from '@playwright/test';
import { startCaptionsWorker } from '../agents/captions/worker';
import { createSpeechToText } from '../lib/stt';
import { startSttServer } from '../test/support/stt-server';
import { launchSpeakingChromium } from '../test/support/speech';
import { createTenant } from './support/tenant';
import { enter, person } from './support/call';

/**
 * Live captions in the hosted call UI: Ada's fake microphone speaks a phrase (espeak-ng, looped by
 * Chromium with pauses), captions are started through the API, Convene's captions worker joins
 * and sends each speech segment to a local OpenAI-compatible speech-to-text server, and Bob's
 * captions overlay shows the server's text under Ada's name.
 */
const mediaEnv = JSON.parse(process.env.E2E_MEDIA_ENV ?? '{}') as Record<string, string>;

test.describe.configure({ timeout: 120_000 });

test('captions started through the API appear in the other participant’s overlay', async ({ browser }) => {
  const stt = await startSttServer('hello world');
  const worker = startCaptionsWorker({
    url: mediaEnv.LIVEKIT_URL,
    apiKey: mediaEnv.LIVEKIT_API_KEY,
    apiSecret: mediaEnv.LIVEKIT_API_SECRET,
    stt: createSpeechToText({ baseUrl: stt.baseUrl, model: 'whisper-1' }),
    agentName: 'convene-captions',
    pollMs: 500,
  });
  // Ada speaks from a browser of her own: the fake microphone's file is a launch flag.
  const { browser: speaking } = await launchSpeakingChromium('hello world, this is a caption test');
  try {
    const tenant = await createTenant('Captions', { plan: 'growth' });
    const roomId = await tenant.room({ enableAiFeatures: true });
    const joinUrl = (who: string) => tenant.joinUrl(roomId, who);
    const ada = await person(speaking);
    const bob = await person(browser);
    await enter(ada, await joinUrl('Ada'));
    await enter(bob, await joinUrl('Bob'));

    expect((await tenant.api('POST', '/api/v1/captions/start', { roomId, language: 'en' })).status).toBe(200);
    await expect(bob.getByTestId('captions')).toContainText('Ada: hello world', { timeout: 30_000 });

    // What the speech-to-text server was sent: speech-length WAV segments, cut at the pauses.
    expect(stt.received.length).toBeGreaterThan(0);
    for (const { contentType, audio } of stt.received) {
      expect(contentType).toBe('audio/wav');
      const seconds = audio.readUInt32LE(40) / 2 / audio.readUInt32LE(24);
      expect(seconds).toBeGreaterThan(0.25);
      expect(seconds).toBeLessThan(4);
    }
    expect((await tenant.api('POST', '/api/v1/captions/stop', { roomId })).status).toBe(200);
    await expect.poll(() => worker.rooms().size, { timeout: 10_000 }).toBe(0);
  } finally {
    await worker.stop();
    await speaking.close();
    await stt.close();
    // No rtc-node dispose() here: it shuts LiveKit's native client down for this whole worker
    // process, and later specs in it (hostile-data) use rtc-node too.
  }
});
