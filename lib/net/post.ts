import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '@/lib/net/ssrf';

interface PostResult {
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * One HTTP POST with a hard timeout, no redirects, and (unless allowPrivate) a DNS lookup that
 * refuses non-public addresses at connect time, so a name cannot be re-pointed after validation.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean; maxResponseBytes: number },
): Promise<PostResult> {
  const started = performance.now();
  const target = new URL(url);
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as unknown as { address: string; family: number }[];
      const safe = opts.allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (safe.length === 0) return callback(new Error(`blocked: ${hostname} resolves to a non-public address`), '', 4);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof safe) => void)(null, safe);
      callback(null, safe[0].address, safe[0].family);
    });
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const req = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < opts.maxResponseBytes) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          finish({
            status: res.statusCode ?? null,
            body: Buffer.concat(chunks).toString('utf8').slice(0, opts.maxResponseBytes),
            error: null,
          }),
        );
        res.on('error', (e) => finish({ status: res.statusCode ?? null, body: null, error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, body: null, error: `timeout after ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (e) => finish({ status: null, body: null, error: e.message }));
    req.end(body);
  });
}
