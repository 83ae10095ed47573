import { test, expect } from '@playwright/test';
import { freePort, spawnAppServer } from './support/app';

/**
 * the production server (`server/main.ts`) with an invalid environment exits non-zero at startup, naming the variable,
 * instead of staying up and answering a plain-text 500 to every request (an orchestrator must
 * see the failure). No database is needed: the process must stop before it would use one.
 */
async function startAndWaitForExit(env: Record<string, string | undefined>, boundMs = 45_000) {
  const child = spawnAppServer(
    await freePort(),
    { DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused', QUEUE_WORKERS: 'false', ...env },
    'pipe',
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

/** Starting with env must fail: the process exits within the bound, non-zero, and its output names the problem. */
async function expectRefusal(env: Record<string, string | undefined>, naming: string | RegExp) {
  const { code, output } = await startAndWaitForExit(env);
  expect(code).not.toBe('still running');
  expect(code).not.toBe(0);
  expect(output).toMatch(naming);
}

test.describe.configure({ timeout: 60_000 });

test('a 10-character NEXTAUTH_SECRET: the production server exits non-zero, naming the variable', async () => {
  await expectRefusal({ NEXTAUTH_SECRET: '0123456789' }, 'NEXTAUTH_SECRET');
});

test('no media credentials in production: the production server exits non-zero, naming LIVEKIT_API_KEY', async () => {
  await expectRefusal({ LIVEKIT_API_KEY: '', LIVEKIT_API_SECRET: '' }, 'LIVEKIT_API_KEY');
});

test('the published devkey/secret pair in production: the production server exits non-zero', async () => {
  await expectRefusal(
    { LIVEKIT_API_KEY: 'devkey', LIVEKIT_API_SECRET: 'secret' },
    /LIVEKIT_API_KEY: "devkey" is a published development key/,
  );
});
