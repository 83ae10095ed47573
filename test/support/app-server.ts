/**
 * The app's route handlers served over real HTTP, in a child process of the test run.
 *
 * Why not the production server (`server/main.ts`): every suite needs its own server on its own
 * database, and several
 * engineers (and CI) run suites in parallel while editing code; a production build per change
 * would make that minutes slower. This server maps URLs to the same app/**\/route.ts modules by
 * Next's file conventions ([param], [...rest]) and calls the exported method handlers with a
 * real Request, exactly as Next does. The Playwright suites and the benchmark use the production server (`server/main.ts`).
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../..');
const appDir = path.join(root, 'app');

interface RouteEntry {
  pattern: RegExp;
  paramNames: string[];
  file: string;
  specificity: number[];
}

function collectRoutes(dir: string, segments: string[] = []): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      routes.push(...collectRoutes(full, [...segments, name]));
    } else if (name === 'route.ts') {
      const paramNames: string[] = [];
      const specificity: number[] = [];
      const source = segments
        .filter((s) => !(s.startsWith('(') && s.endsWith(')')))
        .map((s) => {
          const catchAll = /^\[\.\.\.(\w+)\]$/.exec(s);
          const param = /^\[(\w+)\]$/.exec(s);
          if (catchAll) {
            paramNames.push(catchAll[1]);
            specificity.push(0);
            return '/(.+)';
          }
          if (param) {
            paramNames.push(param[1]);
            specificity.push(1);
            return '/([^/]+)';
          }
          specificity.push(2);
          return `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
        })
        .join('');
      routes.push({ pattern: new RegExp(`^${source}/?$`), paramNames, file: full, specificity });
    }
  }
  return routes;
}

// Static segments win over dynamic ones, as in Next.
const routes = collectRoutes(appDir).sort((a, b) => {
  for (let i = 0; i < Math.max(a.specificity.length, b.specificity.length); i++) {
    const d = (b.specificity[i] ?? -1) - (a.specificity[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
});

const modules = new Map<string, Promise<Record<string, unknown>>>();
const load = (file: string) => {
  if (!modules.has(file)) modules.set(file, import(pathToFileURL(file).href));
  return modules.get(file)!;
};

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  let match: { entry: RouteEntry; params: Record<string, string> } | undefined;
  for (const entry of routes) {
    const m = entry.pattern.exec(url.pathname);
    if (m) {
      match = { entry, params: Object.fromEntries(entry.paramNames.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
      break;
    }
  }
  if (!match) {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such route.' } }));
    return;
  }
  const mod = await load(match.entry.file);
  const handler = mod[req.method ?? 'GET'] as Handler | undefined;
  if (!handler) {
    // As Next answers a method the route file does not export: 405, no body.
    res.writeHead(405).end();
    return;
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else if (v !== undefined) headers.set(k, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(match.params) });
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    outHeaders[k] = k === 'set-cookie' ? response.headers.getSetCookie() : v;
  });
  res.writeHead(response.status, outHeaders);
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  }
  res.end();
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'test server failure' } }));
  });
});

const { boot, shutdown } = await import('@/lib/runtime/boot');
await boot();
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  void shutdown().finally(() => process.exit(0));
});
