import http from 'node:http';
import { type WebhookEvent, WebhookReceiver as LiveKitWebhookReceiver } from 'livekit-server-sdk';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** When the receiver answered it: a sender that waits for answers sends nothing before. */
  answeredAt?: number;
}

/** What the receiver does with the n-th request (0-based): answer a status (after `delayMs`, if given), hang, or reset. */
export type Behaviour = (
  n: number,
) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang' | 'reset';

/** A real HTTP receiver on loopback that records every delivery it gets. */
export async function startWebhookReceiver(behaviour: Behaviour = () => ({ status: 200, body: 'ok' })) {
  const received: ReceivedWebhook[] = [];
  let current = behaviour;
  // Requests open at once (a hanging one stays open until the sender gives up), and the most seen.
  let open = 0;
  let maxConcurrent = 0;
  const server = http.createServer((req, res) => {
    open++;
    maxConcurrent = Math.max(maxConcurrent, open);
    res.on('close', () => open--);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const n = received.length;
      const delivery: ReceivedWebhook = { headers: req.headers, body, at: Date.now() };
      received.push(delivery);
      const action = current(n);
      if (action === 'hang') return; // never answers: the sender's timeout must fire
      if (action === 'reset') return req.socket.destroy();
      const answer = () => {
        delivery.answeredAt = Date.now();
        res.writeHead(action.status, { 'content-type': 'text/plain', ...action.headers }).end(action.body ?? '');
      };
      if (action.delayMs) setTimeout(answer, action.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return {
    url,
    received,
    get maxConcurrent() {
      return maxConcurrent;
    },
    setBehaviour(b: Behaviour) {
      current = b;
    },
    async waitFor(count: number, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * The deliveries in `received` so far as LiveKit webhook events, read as Convene reads them (with
 * livekit-server-sdk's WebhookReceiver): a wrong signature or body hash rejects. Each is read once,
 * when first asked for: its token expires (in 5 minutes) before a long suite ends.
 */
export function livekitEvents(received: ReceivedWebhook[], keys: { apiKey: string; apiSecret: string }) {
  const verifier = new LiveKitWebhookReceiver(keys.apiKey, keys.apiSecret);
  const read = new WeakMap<ReceivedWebhook, Promise<WebhookEvent>>();
  return () =>
    Promise.all(
      received.map((delivery) => {
        let event = read.get(delivery);
        if (!event) read.set(delivery, (event = verifier.receive(delivery.body, delivery.headers.authorization)));
        return event;
      }),
    );
}
