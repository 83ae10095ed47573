/**
 * The SDK as integrators get it: `npm pack` of sdk/ (its prepack builds dist/ with the SDK's own
 * tsconfig), installed from the tarball into a scratch project, an example type-checked under both
 * NodeNext and Bundler resolution, and run under plain Node as ESM. No server needed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const sdkDir = path.join(root, 'sdk');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'convene-sdk-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = {
  ...process.env,
  npm_config_loglevel: 'error',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
};

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What an integrator writes: a backend route that creates a room and redirects, and a webhook handler. */
const EXAMPLE = `
import { Convene, ConveneError, verifyWebhook, isTestDelivery, WebhookVerificationError, type WebhookEvent, type Schemas } from '@convene/sdk';
import { verifyWebhook as verifyFromSubpath } from '@convene/sdk/webhooks';

const convene = new Convene({ baseUrl: 'https://convene.example.com', apiKey: 'cv_test_x', timeoutMs: 10_000, maxRetries: 3 });

export async function joinRoute(user: { id: string; name: string }): Promise<Response> {
  try {
    const room: Schemas['Room'] = await convene.rooms.create({ name: 'Support call', createdByExternalId: user.id });
    const joined = await convene.rooms.join(room.id, { externalUserId: user.id, displayName: user.name, role: 'HOST' });
    return Response.redirect(joined.waitingForApproval ? joined.admissionUrl : joined.joinUrl, 303);
  } catch (err) {
    if (err instanceof ConveneError) return Response.json({ code: err.code, requestId: err.requestId }, { status: err.status ?? 502 });
    throw err;
  }
}

export async function webhookRoute(req: Request): Promise<Response> {
  let event: WebhookEvent;
  try {
    event = await verifyWebhook(await req.text(), req.headers, ['whsec_new', 'whsec_old'], { toleranceSeconds: 600 });
  } catch (err) {
    if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
    throw err;
  }
  if (isTestDelivery(event)) return new Response('ok');
  switch (event.event) {
    case 'room.finished': {
      const seconds: number | null = event.data.duration;
      void seconds;
      break;
    }
    case 'participant.waiting': {
      const pid: string = event.data.participantId;
      void pid;
      break;
    }
  }
  return new Response('ok');
}

export async function everyDelivery() {
  const ids: string[] = [];
  for await (const d of convene.webhooks.deliveries.list({ status: 'failed', limit: 50 })) ids.push(d.id);
  return ids;
}

export async function typesAreReal() {
  // @ts-expect-error createdByExternalId is required by the API reference
  await convene.rooms.create({ name: 'x' });
  // @ts-expect-error not an event name
  const bad: WebhookEvent['event'] = 'room.exploded';
  void bad;
  void verifyFromSubpath;
}
`;

/** Runs under Node as ESM: verifies a delivery signed the way Convene signs, and refuses a forged one. */
const RUNTIME = `
import { createHmac } from 'node:crypto';
import { verifyWebhook, WebhookSignatureError, Convene, ConveneError } from '@convene/sdk';
const secret = 'whsec_abc';
const timestamp = new Date().toISOString();
const body = JSON.stringify({ version: 2, id: 'evt_1', event: 'webhook.test', occurredAt: timestamp, data: { test: true, message: 'hi' } });
const sig = 'sha256=' + createHmac('sha256', secret).update(timestamp + '.' + body).digest('hex');
const headers = { 'x-webhook-signature': sig, 'x-webhook-timestamp': timestamp, 'x-webhook-id': 'evt_1', 'x-webhook-event': 'webhook.test', 'x-webhook-version': '2' };
const event = await verifyWebhook(body, headers, secret);
const forged = await verifyWebhook(body.replace('hi', 'ho'), headers, secret).catch((e) => e);
const offline = await new Convene({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', maxRetries: 0 }).rooms.get('x').catch((e) => e);
console.log(JSON.stringify({ id: event.id, forged: forged instanceof WebhookSignatureError, offline: offline instanceof ConveneError && offline.code }));
`;

describe('npm pack of the SDK', () => {
  it('packs dist, types and README only; installs into a scratch project; the example type-checks and runs', async () => {
    const packDir = path.join(scratch, 'pack');
    mkdirSync(packDir);
    const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', packDir], {
      cwd: sdkDir,
      env: quiet,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/webhooks.js',
        'dist/generated/openapi.d.ts',
      ]),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['README.md', 'package.json'].includes(f))).toEqual([]);

    // Edge runtimes: nothing in the built code imports a Node built-in.
    const dist = path.join(sdkDir, 'dist');
    for (const file of readdirSync(dist, { recursive: true }) as string[]) {
      if (file.endsWith('.js'))
        expect([file, readFileSync(path.join(dist, file), 'utf8')]).not.toEqual([
          file,
          expect.stringMatching(/from ['"]node:|require\(/),
        ]);
    }

    const project = path.join(scratch, 'app');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'scratch-integrator', private: true, type: 'module' }),
    );
    await run(
      npm,
      [
        'install',
        path.join(packDir, packed.filename),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
      ],
      { cwd: project, env: quiet },
    );
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules/@convene/sdk/package.json'), 'utf8'));
    expect(installed.name).toBe('@convene/sdk');

    writeFileSync(path.join(project, 'example.ts'), EXAMPLE);
    // NodeNext also checks the SDK's own declaration files (skipLibCheck false); Bundler only the example.
    for (const [module, moduleResolution, skipLibCheck] of [
      ['NodeNext', 'NodeNext', false],
      ['ESNext', 'Bundler', true],
    ] as const) {
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          module,
          moduleResolution,
          strict: true,
          noEmit: true,
          types: [],
          skipLibCheck,
        },
        files: ['example.ts'],
      };
      writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
      const result = await run(process.execPath, [tsc, '-p', project], { cwd: project }).catch(
        (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
      );
      expect([moduleResolution, result.stdout]).toEqual([moduleResolution, '']);
    }

    writeFileSync(path.join(project, 'run.mjs'), RUNTIME);
    const ran = await run(process.execPath, ['run.mjs'], { cwd: project });
    expect(JSON.parse(ran.stdout)).toEqual({ id: 'evt_1', forged: true, offline: 'NETWORK_ERROR' });
  }, 180_000);
});
