/**
 * The bench's open-loop generator (bench/open-loop.ts) measures what it claims: requests go out on
 * schedule whatever the answers do, and a server that falls behind shows in the latencies (each
 * measured from its request's due time) instead of slowing the offered rate down.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openLoop } from '../../bench/open-loop';

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server answering after `serviceMs`, either in parallel or one request at a time. */
async function startServer({ serviceMs, serial }: { serviceMs: number; serial: boolean }) {
  let queue = Promise.resolve();
  const bodies: string[] = [];
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      const answer = () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            res.end('{}');
            resolve();
          }, serviceMs),
        );
      if (serial) queue = queue.then(answer);
      else void answer();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

describe('open-loop generator', () => {
  it('offers the rate and measures a fast server at its service time', async () => {
    const { base, bodies } = await startServer({ serviceMs: 10, serial: false });
    const result = await openLoop({ base, method: 'POST', path: '/join', body: 'join', rate: 100, seconds: 1 });
    expect(result.offered).toBe(100);
    expect(result.served).toBe(100);
    expect(result.errors).toBe(0);
    expect(result.p50).toBeGreaterThanOrEqual(10);
    expect(result.p50).toBeLessThan(60);
    // Every request is a fresh participant.
    const ids = bodies.map((b) => JSON.parse(b).externalUserId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows a server that falls behind: latency counts from when each request was due', async () => {
    // 25 ms per request, one at a time: at most 40/s, offered 100/s for 1 s. The last requests
    // wait for the whole queue: ~100 × 25 ms = 2.5 s after the first was due, minus the ~1 s of
    // offering — a generator that waited for answers before sending would report ~25 ms.
    const { base } = await startServer({ serviceMs: 25, serial: true });
    const started = performance.now();
    const result = await openLoop({ base, method: 'GET', path: '/health', rate: 100, seconds: 1 });
    expect(result.served).toBe(100);
    expect(result.p99).toBeGreaterThan(1000);
    expect(result.p50).toBeGreaterThan(300);
    // The schedule held: all 100 went out within about the offered second (not 2.5 s).
    expect(result.sendLagP99).toBeLessThan(100);
    expect(performance.now() - started).toBeGreaterThan(2400);
  });
});
