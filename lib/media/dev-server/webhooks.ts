/**
 * Webhooks exactly as LiveKit sends them: a protobuf-JSON WebhookEvent, content type
 * application/webhook+json, and an Authorization header (no "Bearer") holding a JWT signed with the
 * API secret whose sha256 claim is the base64 SHA-256 of the body. Delivered one at a time in
 * order, a few retries on failure.
 */
import { createHash } from 'node:crypto';
import { AccessToken } from 'livekit-server-sdk';
import { WebhookEvent } from '@livekit/protocol';
import { newSid } from './room-state';

type WebhookInit = ConstructorParameters<typeof WebhookEvent>[0];

export async function signedWebhook(body: string, apiKey: string, apiSecret: string) {
  const token = new AccessToken(apiKey, apiSecret, { ttl: 300 });
  token.sha256 = createHash('sha256').update(body).digest('base64');
  return { 'content-type': 'application/webhook+json', authorization: await token.toJwt() };
}

export function createWebhookSender(opts: {
  apiKey: string;
  apiSecret: string;
  urls: () => string[];
  log: (msg: string) => void;
}) {
  let chain = Promise.resolve();
  const sent: { url: string; event: string; status: number }[] = [];

  async function deliver(url: string, body: string, event: string) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: await signedWebhook(body, opts.apiKey, opts.apiSecret),
          body,
          signal: AbortSignal.timeout(15_000),
        });
        sent.push({ url, event, status: res.status });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch (err) {
        opts.log(`webhook ${event} to ${url} failed: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }

  return {
    sent,
    /** Queues an event for every configured receiver; resolves when it has been delivered. */
    emit(init: WebhookInit): Promise<void> {
      const urls = opts.urls();
      if (!urls.length) return Promise.resolve();
      const event = new WebhookEvent({ id: newSid('EV'), createdAt: BigInt(Math.floor(Date.now() / 1000)), ...init });
      const body = event.toJsonString();
      chain = chain.then(async () => {
        for (const url of urls) await deliver(url, body, event.event);
      });
      return chain;
    },
    idle: () => chain,
  };
}
export type WebhookSender = ReturnType<typeof createWebhookSender>;
