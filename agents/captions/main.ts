/**
 * The captions worker as a program of its own (production: run it next to the app, with the same
 * LIVEKIT_* and STT_* variables): `npx tsx agents/captions/main.ts`. `npm start` runs it in its
 * own process when STT_BASE_URL is set.
 */
import { dispose } from '@livekit/rtc-node';
import { createSpeechToText } from '../../lib/stt';
import { startCaptionsWorker } from './worker';

const env = process.env;
const missing = ['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET', 'STT_BASE_URL'].filter((name) => !env[name]);
if (missing.length) {
  console.error(`captions worker: set ${missing.join(', ')}`);
  process.exit(1);
}

const worker = startCaptionsWorker({
  url: env.LIVEKIT_URL!,
  apiKey: env.LIVEKIT_API_KEY!,
  apiSecret: env.LIVEKIT_API_SECRET!,
  stt: createSpeechToText({ baseUrl: env.STT_BASE_URL!, apiKey: env.STT_API_KEY, model: env.STT_MODEL || 'whisper-1' }),
  agentName: env.LIVEKIT_CAPTIONS_AGENT || 'convene-captions',
  log: (msg) => console.log(`[captions] ${msg}`),
});
console.log(`[captions] watching ${env.LIVEKIT_URL} for captions dispatches`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void worker
      .stop()
      .then(() => dispose())
      .finally(() => process.exit(0));
  });
}
