/**
 * Webhooks exactly as LiveKit sends them: a protobuf-JSON WebhookEvent, content type
 * application/webhook+json, and an Authorization header (no "Bearer") holding a JWT signed with the
 * API secret whose sha256 claim is the base64 SHA-256 of the body. Delivered concurrently across
 * rooms (at most MAX_IN_FLIGHT at once) and in order within a room, a few retries on failure.
 */
import { createHash } from 'node:crypto';
import { AccessToken } from 'livekit-server-sdk';
import { WebhookEvent } from '@livekit/protocol';
import { newSid } from '../rtc/room-state';

type WebhookInit = ConstructorParameters<typeof WebhookEvent>[0];

/** Deliveries at once: enough that one slow receiver round trip does not hold up every other room. */
const MAX_IN_FLIGHT = 8;

/** The room an event belongs to: its deliveries keep their order. */
const roomOf = (init: WebhookInit) =>
  init?.room?.name ?? init?.egressInfo?.roomName ?? init?.ingressInfo?.roomName ?? init?.participant?.identity ?? '';

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
  const sent: { url: string; event: string; status: number }[] = [];
  /** Per room, the last queued delivery: the next one for that room starts after it. */
  const lastOfRoom = new Map<string, Promise<void>>();
  let inFlight = 0;
  const waiting: (() => void)[] = [];

  async function withSlot(fn: () => Promise<void>) {
    if (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
    else inFlight++;
    try {
      await fn();
    } finally {
      // The slot passes straight to the next waiter, so inFlight never exceeds the bound.
      const next = waiting.shift();
      if (next) next();
      else inFlight--;
    }
  }

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
        // fetch says only "fetch failed"; the reason (refused, reset, timed out) is its cause.
        const cause = (err as { cause?: { message?: string; code?: string } }).cause;
        opts.log(
          `webhook ${event} to ${url} failed: ${(err as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ''}`,
        );
      }
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }

  return {
    sent,
    /** Queues an event for every configured receiver; resolves when it has been delivered. */
    emit(init: WebhookInit, after?: Promise<void>): Promise<void> {
      const urls = opts.urls();
      if (!urls.length) return Promise.resolve();
      const event = new WebhookEvent({ id: newSid('EV'), createdAt: BigInt(Math.floor(Date.now() / 1000)), ...init });
      const body = event.toJsonString();
      const room = roomOf(init);
      // `after`: an event of another room that must land first (a move: left the old room, then joined).
      const delivered = Promise.all([lastOfRoom.get(room), after]).then(() =>
        withSlot(async () => {
          for (const url of urls) await deliver(url, body, event.event);
        }),
      );
      lastOfRoom.set(room, delivered);
      // Forget a room once its queue is empty, so the map holds only rooms with deliveries pending.
      void delivered.then(() => {
        if (lastOfRoom.get(room) === delivered) lastOfRoom.delete(room);
      });
      return delivered;
    },
    idle: async () => {
      while (lastOfRoom.size) await Promise.all(lastOfRoom.values());
    },
  };
}
export type WebhookSender = ReturnType<typeof createWebhookSender>;
