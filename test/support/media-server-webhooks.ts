/** The development media server in this process, its webhooks going to a receiver that reads them as Convene does. */
import { startDevMediaServer } from '@/media-server';
import { livekitEvents, startWebhookReceiver } from './webhook-receiver';

export async function mediaServerWithWebhooks(
  options: Omit<Parameters<typeof startDevMediaServer>[0], 'webhookUrls'> = {},
) {
  const receiver = await startWebhookReceiver();
  const media = await startDevMediaServer({ ...options, webhookUrls: [receiver.url] });
  return {
    media,
    /** The webhooks so far, each verified with livekit-server-sdk. */
    hooks: livekitEvents(receiver.received, media),
    async close() {
      await media.close();
      await receiver.close();
    },
  };
}
