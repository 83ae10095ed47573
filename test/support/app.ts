import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Fixed for tests only; production keys come from the environment. */
export const TEST_MASTER_KEY = 'a3f1c2e4b5d6978812345678909abcdefa3f1c2e4b5d6978812345678909abcd';

export interface AppProcess {
  baseUrl: string;
  port: number;
  env: Record<string, string>;
  /** Everything the process printed (stdout and stderr), for assertions on logs. */
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: the process dies mid-work, as a crash would. */
  kill(): Promise<void>;
}

export function baseTestEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '5',
    CONVENE_MASTER_KEY: TEST_MASTER_KEY,
    PUBLIC_BASE_URL: 'http://localhost:3000',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    WEBHOOK_BACKOFF_BASE_MS: '50',
    WEBHOOK_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/** Starts test/support/app-server.ts in a child process and waits until it listens. */
export async function startApp(env: Record<string, string>): Promise<AppProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/app-server.ts')],
    {
      cwd: root,
      env: { ...process.env, ...env, PORT: env.PORT ?? '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start:\n${output}`)), 90_000); // a loaded 2-core machine compiles slowly
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /LISTENING (\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code}:\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    env,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface ApiOptions {
  key?: string;
  providerKey?: string;
  bearer?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * fetch, asked once more when the kept-alive connection it reused was closed under it before any
 * answer ("other side closed"), as an HTTP client retries on a stale kept-alive connection (a
 * server that had read the request and then dropped it would see it twice; none of ours does). It hit one request in a CI run of 600, in a test about
 * something else; a server that drops a request it has read still fails here the second time.
 */
async function fetchOnFreshSocketIfClosed(url: string, init: RequestInit) {
  try {
    return await fetch(url, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

/** A tiny client for tests: JSON in, parsed JSON out, never throws on a status. */
export function apiClient(baseUrl: string) {
  return async function api<T = any>(method: string, path: string, opts: ApiOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers['x-api-key'] = opts.key;
    if (opts.providerKey) headers['x-provider-key'] = opts.providerKey;
    if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetchOnFreshSocketIfClosed(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON bodies stay text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  };
}
export type Api = ReturnType<typeof apiClient>;
