/**
 * An open-loop load generator, run by bench/run.ts in a process of its own: requests are sent on a
 * fixed schedule (one every 1000/rate ms, whatever the answers do), and each latency is measured
 * from the moment its request was due, not from when it was actually sent — so a server (or a
 * generator) that falls behind shows in the figures instead of hiding them (coordinated omission).
 *
 * Why not autocannon's overallRate: it sends each connection's quota for the second back to back
 * at the top of every second and then pauses (bursts, not a rate), and its coordinated-omission
 * correction assumes a 1 ms interval between requests, adding a synthetic sample for every
 * millisecond a response took beyond that. Both inflate p99 many times over at 100 req/s.
 *
 * Usage: tsx bench/open-loop.ts '<json spec>' → prints one JSON result line.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isMain } from '../scripts/is-main';
import { percentile } from './stats';

export interface OpenLoopSpec {
  base: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /**
   * 'join': a fresh participant per request ({ externalUserId, displayName }); 'per-request': the
   * entries of requestsFile in turn, each its own bearer token and JSON body; else no body.
   */
  body?: 'join' | 'per-request';
  /** For 'per-request': a JSON file of [{ token, body }] (too many for a command line). */
  requestsFile?: string;
  rate: number;
  seconds: number;
}

export interface OpenLoopResult {
  offered: number;
  served: number;
  non2xx: number;
  errors: number;
  /** Requests per second actually completed over the run. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** How late the generator itself sent requests (its own scheduling delay), p99 ms. */
  sendLagP99: number;
}

export async function openLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
  const url = new URL(spec.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const count = Math.round(spec.rate * spec.seconds);
  const interval = 1000 / spec.rate;
  const latencies: number[] = [];
  const lags: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const perRequest =
    spec.body === 'per-request'
      ? (JSON.parse(readFileSync(spec.requestsFile!, 'utf8')) as { token: string; body: string }[])
      : [];

  const send = (due: number, i: number) =>
    new Promise<void>((resolve) => {
      lags.push(performance.now() - due);
      const entry = perRequest.length
        ? perRequest[((i % perRequest.length) + perRequest.length) % perRequest.length]
        : null;
      const body =
        spec.body === 'join'
          ? JSON.stringify({ externalUserId: `ol_${i}_${randomBytes(3).toString('hex')}`, displayName: 'Bench' })
          : entry?.body;
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: spec.method,
          path: spec.path,
          headers: {
            ...(spec.headers ?? {}),
            ...(entry ? { authorization: `Bearer ${entry.token}` } : {}),
            ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  // Open a few connections first, so the run measures requests rather than TCP handshakes.
  await Promise.all(Array.from({ length: 8 }, (_, i) => send(performance.now(), -1 - i)));
  latencies.length = 0;
  lags.length = 0;
  non2xx = 0;
  errors = 0;

  const started = performance.now() + 50;
  const inFlight: Promise<void>[] = [];
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < count && started + next * interval <= now) {
        inFlight.push(send(started + next * interval, next));
        next++;
      }
      if (next >= count) return resolve();
      setTimeout(tick, Math.max(0, started + next * interval - performance.now()));
    };
    setTimeout(tick, 50);
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    offered: count,
    served: latencies.length,
    non2xx,
    errors,
    rps: Math.round(latencies.length / elapsed),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
    sendLagP99: round(
      percentile(
        lags.sort((a, b) => a - b),
        99,
      ),
    ),
  };
}

if (isMain(import.meta.filename)) {
  openLoop(JSON.parse(process.argv[2]) as OpenLoopSpec).then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
