/**
 * The development media server as its own process: `npx tsx media-server/main.ts`.
 * Environment: LIVEKIT_API_KEY and LIVEKIT_API_SECRET (required: the pair the app signs with),
 * DEV_MEDIA_PORT (7880), DEV_MEDIA_HOST (127.0.0.1), DEV_MEDIA_WEBHOOK_URLS (comma-separated),
 * DEV_MEDIA_V1=0 (LiveKit's v0 signaling only, as a server before v1).
 */
import { startDevMediaServer } from './server';

const { LIVEKIT_API_KEY: apiKey, LIVEKIT_API_SECRET: apiSecret } = process.env;
if (!apiKey || !apiSecret) {
  console.error('LIVEKIT_API_KEY and LIVEKIT_API_SECRET must be set (the key pair Convene signs with).');
  process.exit(1);
}
const media = await startDevMediaServer({
  port: Number(process.env.DEV_MEDIA_PORT ?? 7880),
  host: process.env.DEV_MEDIA_HOST ?? '127.0.0.1',
  apiKey,
  apiSecret,
  webhookUrls: (process.env.DEV_MEDIA_WEBHOOK_URLS ?? '').split(',').filter(Boolean),
  v1: process.env.DEV_MEDIA_V1 !== '0',
  log: (msg) => console.log(`[media] ${msg}`),
});
console.log(`Convene development media server (LiveKit-compatible, not for production) on ${media.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void media.close().then(() => process.exit(0)));
