/**
 * The SDK (sdk/, published as @convene/sdk) against the real app over HTTP: every call below goes
 * through the SDK only — the typical flow, the waiting room, key rotation, webhook verification,
 * a provider provisioning a tenant, error mapping and retries. The one direct database use is
 * seeding the provider (providers have no public API).
 */
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { startWebhookReceiver } from '../support/webhook-receiver';
import {
  Convene,
  ConveneError,
  verifyWebhook,
  isTestDelivery,
  WebhookMissingHeaderError,
  WebhookSignatureError,
  WebhookTimestampError,
  WebhookVerificationError,
  type WebhookEvent,
} from '../../sdk/src/index';
import { signatureHeader } from '@/lib/events/signature';
import { parseRetryAfter } from '../../sdk/src/errors';
import { renderSdkTypes, SDK_TYPES_FILE, SDK_GENERATE_COMMAND } from '../../scripts/generate-sdk-types';

const suite = useSuite();

let provider: Convene; // the reseller's client
let convene: Convene; // a tenant's client, for a tenant the provider provisioned through the SDK
let tenantKey: string;
let webhookSecret: string;
let tenantId: string;

const client = (opts: Partial<ConstructorParameters<typeof Convene>[0]> = {}) =>
  new Convene({ baseUrl: suite.app.baseUrl, retryBaseDelayMs: 20, ...opts });

/** An HTTP server answering each request with `answer(n, req)`; `'proxy'` forwards it to the app. */
async function startStub(
  answer: (
    n: number,
    req: http.IncomingMessage,
  ) => { status: number; headers?: Record<string, string>; body?: string } | 'proxy' | 'hang',
) {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; at: number }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const n = seen.length;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, at: Date.now() });
      const action = answer(n, req);
      if (action === 'hang') return;
      if (action === 'proxy') {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)) as [
            string,
            string,
          ][],
        );
        const upstream = await fetch(`${suite.app.baseUrl}${req.url}`, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        res.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
          'x-request-id': upstream.headers.get('x-request-id') ?? '',
        });
        return res.end(Buffer.from(await upstream.arrayBuffer()));
      }
      res.writeHead(action.status, action.headers).end(action.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const caught = async (p: PromiseLike<unknown>): Promise<ConveneError> => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ConveneError);
    return e as ConveneError;
  }
  throw new Error('expected the call to throw');
};

beforeAll(async () => {
  const seeded = await seedTenant({ name: 'Seed tenant' });
  provider = client({ providerKey: seeded.providerKey! });
  const provisioned = await provider.provider.tenants.provision({ name: 'Acme via SDK', plan: 'growth' });
  tenantKey = provisioned.apiKey.plainTextKey;
  webhookSecret = provisioned.webhookSecret;
  tenantId = provisioned.tenant.id;
  convene = client({ apiKey: tenantKey });
});

describe('the generated types', () => {
  it(`equal what the served API reference generates (stale: run \`${SDK_GENERATE_COMMAND}\`)`, async () => {
    // The document itself is not an operation of the API (no SDK method): read it as served.
    const served = (await suite.api('GET', '/api/v1/openapi.json')).body;
    const fresh = await renderSdkTypes(served);
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    if (committed !== fresh) {
      const a = committed.split('\n');
      const b = fresh.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        `sdk/src/generated/openapi.ts differs from what the API reference generates (first at line ${line + 1}: ` +
          `committed ${JSON.stringify(a[line]?.trim())}, generated ${JSON.stringify(b[line]?.trim())}). Run \`${SDK_GENERATE_COMMAND}\` and commit the result.`,
      );
    }
  }, 60_000);
});

describe('a provider provisions a tenant through the SDK', () => {
  it('returns the tenant, its first key and its webhook secret; the key works at once', async () => {
    expect(tenantKey).toMatch(/^cv_live_/);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect((await convene.tenant.get()).id).toBe(tenantId);
    const owned = await provider.provider.tenants.get(tenantId);
    expect(owned).toMatchObject({ id: tenantId, name: 'Acme via SDK', plan: 'growth' });
    const updated = await provider.provider.tenants.update(tenantId, {
      entitlementOverrides: { maxParticipantsPerRoom: 40 },
    });
    expect(updated.resolvedLimits.maxParticipantsPerRoom).toBe(40);
  });

  it('walks every owned tenant across cursor pages with for await', async () => {
    for (const name of ['More 1', 'More 2']) await provider.provider.tenants.provision({ name, isTestMode: true });
    const first = await provider.provider.tenants.list({ limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const names: string[] = [];
    for await (const t of provider.provider.tenants.list({ limit: 1 })) names.push(t.name);
    expect(names).toEqual(expect.arrayContaining(['Seed tenant', 'Acme via SDK', 'More 1', 'More 2']));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the typical flow', () => {
  it('create a room → join → the join URL opens the call for that participant', async () => {
    const room = await convene.rooms.create({ name: 'Weekly review', createdByExternalId: 'user_42' });
    expect(room).toMatchObject({ name: 'Weekly review', status: 'WAITING' });
    const joined = await convene.rooms.join(room.id, { externalUserId: 'user_42', displayName: 'Ada', role: 'HOST' });
    if (joined.waitingForApproval) throw new Error('a host is never parked');
    const url = new URL(joined.joinUrl);
    expect(url.pathname).toBe('/join');
    expect(url.searchParams.get('token')).toBe(joined.token);
    expect(url.searchParams.get('url')).toBe(joined.mediaUrl);
    // What the call UI does with the URL's token: it identifies this participant in this room.
    const { data: me } = await convene.api.GET('/api/v1/me', {
      headers: { authorization: `Bearer ${url.searchParams.get('token')}` },
    });
    expect(me).toMatchObject({ room: { roomId: room.id }, participant: { externalUserId: 'user_42', role: 'HOST' } });
    expect((await convene.rooms.get(room.id)).participants?.map((p) => p.externalUserId)).toEqual(['user_42']);
    const ended = await convene.rooms.end(room.id);
    expect(ended.status).toBe('ENDED');
  });

  it('the same Idempotency-Key replays the first answer; without one each call is its own', async () => {
    const key = `create-${Date.now()}`;
    const a = await convene.rooms.create({ name: 'Once', createdByExternalId: 'u' }, { idempotencyKey: key });
    const b = await convene.rooms.create({ name: 'Once', createdByExternalId: 'u' }, { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    const c = await convene.rooms.create({ name: 'Once', createdByExternalId: 'u' });
    expect(c.id).not.toBe(a.id);
    const conflict = await caught(
      convene.rooms.create({ name: 'Other body', createdByExternalId: 'u' }, { idempotencyKey: key }),
    );
    expect([conflict.status, conflict.code]).toEqual([409, 'CONFLICT']);
  });

  it('lists rooms a page at a time or all of them', async () => {
    const page = await convene.rooms.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    const all = await convene.rooms.list({ limit: 2 }).toArray();
    expect(all.map((r) => r.name)).toEqual(expect.arrayContaining(['Weekly review', 'Once', 'Once']));
    expect(all.length).toBeGreaterThan(2);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
  });
});

describe('a call queue', () => {
  it('queue a call → ring an agent → accept: both sides get a join URL; end', async () => {
    const queued = await convene.calls.create({ callerExternalId: 'cust_1', callerDisplayName: 'Customer' });
    expect(queued.status).toBe('QUEUED');
    expect((await convene.calls.list({ status: 'QUEUED' })).data.map((c) => c.id)).toContain(queued.id);
    expect((await convene.calls.ring(queued.id, { agentExternalId: 'agent_7' })).status).toBe('RINGING');
    const accepted = await convene.calls.accept(queued.id, {
      acceptedByExternalId: 'agent_7',
      acceptedByDisplayName: 'Agent',
    });
    expect(new URL(accepted.callerJoinUrl).searchParams.get('token')).toBe(accepted.callerToken);
    expect(new URL(accepted.agentJoinUrl).searchParams.get('token')).toBe(accepted.agentToken);
    expect((await convene.calls.get(queued.id)).status).toBe('ACCEPTED');
    expect((await convene.calls.end(queued.id, { actorExternalId: 'agent_7' })).status).toBe('ENDED');
  });
});

describe('the waiting room', () => {
  it('parks an attendee, admits one and refuses another', async () => {
    const room = await convene.rooms.create({ name: 'Clinic', createdByExternalId: 'dr', enableWaitingRoom: true });
    const host = await convene.rooms.join(room.id, { externalUserId: 'dr', displayName: 'Dr', role: 'HOST' });
    expect(host.waitingForApproval).toBe(false);

    const parked = await convene.rooms.join(room.id, { externalUserId: 'patient', displayName: 'Pat' });
    if (!parked.waitingForApproval) throw new Error('an attendee must wait');
    expect(new URL(parked.admissionUrl).pathname).toBe('/join/waiting');
    const pid = parked.participant.id;
    expect((await convene.rooms.participants.admission(room.id, pid)).status).toBe('waiting');

    const notHost = await caught(convene.rooms.participants.approve(room.id, pid, { actingExternalUserId: 'patient' }));
    expect(notHost.status).toBe(403);
    const approved = await convene.rooms.participants.approve(room.id, pid, { actingExternalUserId: 'dr' });
    expect(approved).toMatchObject({ isApproved: true, approvedBy: 'dr' });
    const admission = await convene.rooms.participants.admission(room.id, pid);
    expect(admission.status).toBe('approved');
    expect(admission.joinUrl).toContain('/join?token=');

    const other = await convene.rooms.join(room.id, { externalUserId: 'stranger', displayName: 'S' });
    if (!other.waitingForApproval) throw new Error('an attendee must wait');
    const denied = await convene.rooms.participants.deny(room.id, other.participant.id, { actingExternalUserId: 'dr' });
    expect(denied.connectionState).toBe('DENIED');
    expect((await convene.rooms.participants.admission(room.id, other.participant.id)).status).toBe('denied');
    const again = await caught(convene.rooms.join(room.id, { externalUserId: 'stranger', displayName: 'S' }));
    expect(again.status).toBe(403);
  });
});

describe('webhooks', () => {
  it('a test event reaches the receiver, verifies with verifyWebhook, and is refused when tampered, too old or under the wrong secret', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const config = await convene.webhooks.configure({ webhookUrl: receiver.url });
      expect(config).toMatchObject({ url: receiver.url, secretConfigured: true });
      const sent = await convene.webhooks.test({ event: 'room.finished' });
      const [delivery] = await receiver.waitFor(1);
      const event: WebhookEvent = await verifyWebhook(delivery.body, delivery.headers, webhookSecret);
      expect(event).toMatchObject({ version: 2, id: sent.eventId, event: 'room.finished' });
      expect(isTestDelivery(event)).toBe(true);
      expect(event.data).toMatchObject({ test: true });
      // Fetch Headers work as well as Node's header object.
      const asHeaders = new Headers(Object.entries(delivery.headers).map(([k, v]): [string, string] => [k, String(v)]));
      expect((await verifyWebhook(new TextEncoder().encode(delivery.body), asHeaders, [webhookSecret])).id).toBe(
        sent.eventId,
      );

      const tampered = delivery.body.replace('"test":true', '"test":false');
      expect(tampered).not.toBe(delivery.body);
      await expect(verifyWebhook(tampered, delivery.headers, webhookSecret)).rejects.toBeInstanceOf(
        WebhookSignatureError,
      );
      const wrong = await verifyWebhook(delivery.body, delivery.headers, 'whsec_not_the_secret').catch((e) => e);
      expect(wrong).toBeInstanceOf(WebhookSignatureError);
      expect(wrong.code).toBe('SIGNATURE_MISMATCH');
      const old = await verifyWebhook(delivery.body, delivery.headers, webhookSecret, {
        now: Date.now() + 16 * 60_000,
      }).catch((e) => e);
      expect(old).toBeInstanceOf(WebhookTimestampError);
      expect(old.message).toMatch(/signed \d+ s ago/);
      // A wider tolerance accepts the same delivery.
      await expect(
        verifyWebhook(delivery.body, delivery.headers, webhookSecret, {
          toleranceSeconds: 3600,
          now: Date.now() + 16 * 60_000,
        }),
      ).resolves.toMatchObject({ id: sent.eventId });
      const { 'x-webhook-signature': _dropped, ...unsigned } = delivery.headers;
      const missing = await verifyWebhook(delivery.body, unsigned, webhookSecret).catch((e) => e);
      expect(missing).toBeInstanceOf(WebhookMissingHeaderError);
      expect(missing).toBeInstanceOf(WebhookVerificationError);
      expect(missing.message).toContain('x-webhook-signature');

      // The delivery log through the SDK.
      const logged = await convene.webhooks.deliveries.get(sent.deliveryId);
      expect(logged.eventId).toBe(sent.eventId);
    } finally {
      await receiver.close();
    }
  });

  it('during a secret rotation either secret verifies; after it only the new one', async () => {
    const receiver = await startWebhookReceiver();
    try {
      await convene.webhooks.configure({ webhookUrl: receiver.url });
      const rotated = await convene.webhooks.rotateSecret({ overlapSeconds: 3600 });
      expect(rotated.webhookSecret).toMatch(/^whsec_/);
      await convene.webhooks.test();
      const [delivery] = await receiver.waitFor(1);
      expect(String(delivery.headers['x-webhook-signature']).split(',')).toHaveLength(2);
      expect((await verifyWebhook(delivery.body, delivery.headers, webhookSecret)).event).toBe('webhook.test');
      expect((await verifyWebhook(delivery.body, delivery.headers, rotated.webhookSecret)).event).toBe('webhook.test');
      expect(
        (await verifyWebhook(delivery.body, delivery.headers, ['whsec_unrelated', rotated.webhookSecret])).event,
      ).toBe('webhook.test');

      const now = await convene.webhooks.rotateSecret({ overlapSeconds: 0 });
      await convene.webhooks.test();
      const [, second] = await receiver.waitFor(2);
      expect(String(second.headers['x-webhook-signature']).split(',')).toHaveLength(1);
      await expect(verifyWebhook(second.body, second.headers, rotated.webhookSecret)).rejects.toBeInstanceOf(
        WebhookSignatureError,
      );
      expect((await verifyWebhook(second.body, second.headers, [rotated.webhookSecret, now.webhookSecret])).event).toBe(
        'webhook.test',
      );
      webhookSecret = now.webhookSecret;
    } finally {
      await receiver.close();
    }
  });

  it('walks the delivery log across cursor pages with for await', async () => {
    const ids: string[] = [];
    for await (const d of convene.webhooks.deliveries.list({ limit: 1 })) ids.push(d.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("verifyWebhook refusals, against the server's own signer", () => {
  const at = new Date('2026-11-23T10:00:00.000Z');
  const body = JSON.stringify({
    version: 2,
    id: 'evt_abc',
    event: 'participant.waiting',
    occurredAt: at.toISOString(),
    data: { roomId: 'r', participantId: 'p', externalUserId: 'u' },
  });
  const headers = (over: Record<string, string> = {}) => ({
    'x-webhook-event': 'participant.waiting',
    'x-webhook-id': 'evt_abc',
    'x-webhook-timestamp': at.toISOString(),
    'x-webhook-version': '2',
    'x-webhook-signature': signatureHeader(['whsec_new', 'whsec_old'], at.toISOString(), body),
    ...over,
  });
  const verify = (
    h: Record<string, string>,
    secrets: string | string[] = 'whsec_old',
    now = at.getTime() + 1000,
    b = body,
  ) => verifyWebhook(b, h, secrets, { now }).catch((e: unknown) => e);

  it('accepts a match on any value and any secret, and types the event', async () => {
    const event = await verifyWebhook(body, headers(), 'whsec_old', { now: at });
    if (event.event !== 'participant.waiting') throw new Error('narrowing');
    expect(event.data.participantId).toBe('p');
    expect((await verify(headers(), ['whsec_x', 'whsec_new'])) as WebhookEvent).toMatchObject({ id: 'evt_abc' });
  });

  it('names each failure', async () => {
    for (const name of ['x-webhook-signature', 'x-webhook-timestamp', 'x-webhook-id', 'x-webhook-event']) {
      const h: Record<string, string> = headers();
      delete h[name];
      expect(await verify(h)).toMatchObject({
        name: 'WebhookMissingHeaderError',
        code: 'MISSING_HEADER',
        header: name,
      });
    }
    expect(await verify(headers({ 'x-webhook-signature': 'v1,abc' }))).toMatchObject({
      name: 'WebhookSignatureError',
      code: 'INVALID_HEADER',
    });
    expect(await verify(headers(), 'whsec_other')).toMatchObject({
      name: 'WebhookSignatureError',
      code: 'SIGNATURE_MISMATCH',
    });
    // The signature covers the timestamp: moving it breaks the signature, not just the age check.
    expect(await verify(headers({ 'x-webhook-timestamp': new Date().toISOString() }))).toMatchObject({
      code: 'SIGNATURE_MISMATCH',
    });
    expect(await verify(headers(), 'whsec_old', at.getTime() + 901_000)).toMatchObject({
      name: 'WebhookTimestampError',
      code: 'TIMESTAMP_OUT_OF_TOLERANCE',
    });
    expect(await verify(headers(), 'whsec_old', at.getTime() - 901_000)).toMatchObject({
      code: 'TIMESTAMP_OUT_OF_TOLERANCE',
      message: expect.stringContaining('future'),
    });
    // Signed correctly but not agreeing with its headers.
    const other = headers({ 'x-webhook-id': 'evt_other' });
    expect(await verify(other)).toMatchObject({ name: 'WebhookPayloadError', code: 'INVALID_PAYLOAD' });
    await expect(verifyWebhook(body, headers(), [])).rejects.toBeInstanceOf(TypeError);
  });

  it('refuses a correctly signed body whose envelope has the wrong shape or version', async () => {
    const envelope = JSON.parse(body);
    const signed = (b: string) =>
      verify(
        headers({ 'x-webhook-signature': signatureHeader(['whsec_old'], at.toISOString(), b) }),
        'whsec_old',
        at.getTime() + 1000,
        b,
      );
    for (const [what, changed] of [
      ['data null', { ...envelope, data: null }],
      ['data an array', { ...envelope, data: [] }],
      ['data missing', { ...envelope, data: undefined }],
      ['version 1', { ...envelope, version: 1 }],
      ['version "2"', { ...envelope, version: '2' }],
      ['no version', { ...envelope, version: undefined }],
      ['occurredAt not a time', { ...envelope, occurredAt: 'yesterday' }],
      ['an array', [envelope]],
      ['null', null],
    ] as const)
      expect({ what, error: await signed(JSON.stringify(changed)) }).toMatchObject({
        what,
        error: { name: 'WebhookPayloadError', code: 'INVALID_PAYLOAD' },
      });
    expect(await signed(body)).toMatchObject({ id: 'evt_abc', version: 2 });
  });
});

describe('per-call options', () => {
  it('a per-call timeout and an abort signal are typed errors too, however often the garbage collector runs', async () => {
    const hang = await startStub(() => 'hang');
    // A collection while a call waits once lost its abort (undici holds a Request's signal weakly):
    // the call then hung. Collect every 10 ms while these wait.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const collecting = setInterval(gc, 10);
    try {
      const sdk = new Convene({ baseUrl: hang.url, apiKey: 'k', timeoutMs: 60_000, maxRetries: 0 });
      for (let i = 0; i < 5; i++) {
        expect((await caught(sdk.rooms.get('r', { timeoutMs: 100 }))).code).toBe('TIMEOUT');
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        expect((await caught(sdk.rooms.get('r', { signal: controller.signal }))).code).toBe('ABORTED');
      }
    } finally {
      clearInterval(collecting);
      await hang.close();
    }
  });
});

describe('key rotation', () => {
  it('the new key works at once; the old one until its grace period ends (0: at once)', async () => {
    const graceful = await convene.tenant.keys.rotate({ gracePeriodSeconds: 3600 });
    expect(graceful.plainTextKey).toMatch(/^cv_live_/);
    expect(graceful.previousKey.status).toBe('expiring');
    expect((await convene.tenant.get()).id).toBe(tenantId); // the old key, within its grace period
    const next = client({ apiKey: graceful.plainTextKey });
    expect((await next.tenant.get()).id).toBe(tenantId);

    const immediate = await next.tenant.keys.rotate({ gracePeriodSeconds: 0 });
    const refused = await caught(next.tenant.get());
    expect([refused.status, refused.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(refused.requestId).toMatch(/^req_/);
    tenantKey = immediate.plainTextKey;
    convene = client({ apiKey: tenantKey });
    expect((await convene.tenant.get()).id).toBe(tenantId);
  });
});

describe('errors are one typed class', () => {
  it('404 NOT_FOUND with status, requestId and message', async () => {
    const err = await caught(convene.rooms.get('does-not-exist'));
    expect(err).toMatchObject({ name: 'ConveneError', code: 'NOT_FOUND', status: 404 });
    expect(err.requestId).toMatch(/^req_/);
    expect(err.message.length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: err.requestId });
  });

  it('400 VALIDATION_FAILED carries the details', async () => {
    // @ts-expect-error createdByExternalId is required: the server, not the SDK, says so
    const err = await caught(convene.rooms.create({ name: 'x' }));
    expect([err.status, err.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(err.details.map((d) => d.field)).toContain('createdByExternalId');
  });

  it('a network failure is NETWORK_ERROR (after its retries)', async () => {
    const closed = await startStub(() => ({ status: 200 }));
    await closed.close();
    const err = await caught(
      new Convene({ baseUrl: closed.url, apiKey: 'k', maxRetries: 1, retryBaseDelayMs: 10 }).rooms.list(),
    );
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', status: null, requestId: null });
    expect(err.message).toContain(`GET ${closed.url}/api/v1/rooms`);
  });

  it("a proxy's HTML 502 page is UNEXPECTED_RESPONSE with the status; a 200 that is not JSON too", async () => {
    const proxy = await startStub((n) =>
      n === 0
        ? {
            status: 502,
            headers: { 'content-type': 'text/html' },
            body: '<html><body><h1>502 Bad Gateway</h1>nginx</body></html>',
          }
        : { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login page</html>' },
    );
    try {
      const sdk = new Convene({ baseUrl: proxy.url, apiKey: 'k', maxRetries: 0 });
      const err = await caught(sdk.rooms.get('r1'));
      expect(err).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 502 });
      expect(err.message).toContain('502');
      expect(err.message).toContain('Bad Gateway');
      const ok = await caught(sdk.rooms.get('r1'));
      expect(ok).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 200 });
    } finally {
      await proxy.close();
    }
  });

  it('no answer within timeoutMs is TIMEOUT', async () => {
    const hang = await startStub(() => 'hang');
    try {
      const started = Date.now();
      const err = await caught(
        new Convene({ baseUrl: hang.url, apiKey: 'k', timeoutMs: 200, maxRetries: 0 }).rooms.list(),
      );
      expect(err.code).toBe('TIMEOUT');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await hang.close();
    }
  });
});

describe('retries', () => {
  it('a 429 is retried after Retry-After with the same Idempotency-Key, and the room is created once', async () => {
    const proxy = await startStub((n) =>
      n === 0
        ? {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '1' },
            body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down', requestId: 'req_x' } }),
          }
        : 'proxy',
    );
    try {
      const sdk = new Convene({ baseUrl: proxy.url, apiKey: tenantKey });
      const room = await sdk.rooms.create({ name: 'Retried', createdByExternalId: 'u' });
      expect(proxy.seen).toHaveLength(2);
      expect(proxy.seen[1].at - proxy.seen[0].at).toBeGreaterThanOrEqual(950);
      const keys = proxy.seen.map((s) => s.headers['idempotency-key']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect((await convene.rooms.get(room.id)).name).toBe('Retried');
    } finally {
      await proxy.close();
    }
  });

  it('Retry-After is read as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('503 is retried with backoff; once retries run out the last answer is the error; a Retry-After beyond maxRetryDelayMs is not waited for', async () => {
    const busy = {
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'busy', requestId: 'req_y' } }),
    };
    const proxy = await startStub(() => busy);
    try {
      const err = await caught(
        new Convene({ baseUrl: proxy.url, apiKey: 'k', maxRetries: 2, retryBaseDelayMs: 10 }).rooms.list(),
      );
      expect(proxy.seen).toHaveLength(3);
      expect(proxy.seen.map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined, undefined]); // GETs carry none
      expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, requestId: 'req_y' });
      expect(err.retryable).toBe(true);
    } finally {
      await proxy.close();
    }
    const limited = await startStub(() => ({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '120' },
      body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'later', requestId: 'req_z' } }),
    }));
    try {
      const err = await caught(new Convene({ baseUrl: limited.url, apiKey: 'k', maxRetryDelayMs: 5_000 }).rooms.list());
      expect(limited.seen).toHaveLength(1);
      expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterSeconds: 120 });
    } finally {
      await limited.close();
    }
  });
});
