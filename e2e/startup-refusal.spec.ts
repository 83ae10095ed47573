import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';

/**
 * `next start` with an invalid environment exits non-zero at startup, naming the variable,
 * instead of staying up and answering a plain-text 500 to every request (an orchestrator must
 * see the failure). No database is needed: the process must stop before it would use one.
 */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

async function startAndWaitForExit(env: Record<string, string | undefined>, boundMs = 45_000) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      env: {
        ...process.env,
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
        DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused',
        CONVENE_MASTER_KEY: 'e2e-only-master-key-0123456789abcdef',
        QUEUE_WORKERS: 'false',
        LIVEKIT_API_KEY: `APIe2e${randomBytes(6).toString('hex')}`,
        LIVEKIT_API_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'warn',
        ...env,
      } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null | 'still running'>((resolve) => {
    const timer = setTimeout(() => resolve('still running'), boundMs);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  if (code === 'still running') child.kill('SIGKILL');
  return { code, output };
}

test('a 10-character NEXTAUTH_SECRET: next start exits non-zero, naming the variable', async () => {
  test.setTimeout(60_000);
  const { code, output } = await startAndWaitForExit({ NEXTAUTH_SECRET: '0123456789' });
  expect(code).not.toBe('still running');
  expect(code).not.toBe(0);
  expect(output).toContain('NEXTAUTH_SECRET');
});

test('no media credentials in production: next start exits non-zero, naming LIVEKIT_API_KEY', async () => {
  test.setTimeout(60_000);
  const { code, output } = await startAndWaitForExit({ LIVEKIT_API_KEY: '', LIVEKIT_API_SECRET: '' });
  expect(code).not.toBe('still running');
  expect(code).not.toBe(0);
  expect(output).toContain('LIVEKIT_API_KEY');
});

test('the published devkey/secret pair in production: next start exits non-zero', async () => {
  test.setTimeout(60_000);
  const { code, output } = await startAndWaitForExit({ LIVEKIT_API_KEY: 'devkey', LIVEKIT_API_SECRET: 'secret' });
  expect(code).not.toBe('still running');
  expect(code).not.toBe(0);
  expect(output).toMatch(/LIVEKIT_API_KEY: "devkey" is a published development key/);
});
