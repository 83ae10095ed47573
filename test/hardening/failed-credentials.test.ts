/**
 * Failed credentials are limited per client address on every endpoint that takes one (API key,
 * provider key, participant token, admission secret): the 31st refused credential within a minute
 * answers 429 with Retry-After, and from then on that address is refused before any credential
 * is checked — a right one included — while another address is not. The app trusts this test as
 * its proxy (TRUSTED_PROXIES), so each case comes from an address of its own.
 */
import { beforeAll, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { FAILED_CREDENTIALS_PER_ADDRESS } from '@/lib/http/rate-limit';
import type { ApiOptions } from '../support/app';

const suite = useSuite({ env: () => ({ TRUSTED_PROXIES: '127.0.0.1,::1' }) });
let t: Awaited<ReturnType<typeof seedTenant>>;
let participantToken: string;
let admission: { path: string; secret: string };

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', entitlementOverrides: { apiRequestsPerSecond: 1000 } });
  const room = (
    await suite.api('POST', '/api/v1/rooms', {
      key: t.key,
      body: { createdByExternalId: 'host', name: 'Guarded', enableWaitingRoom: true },
    })
  ).body;
  const join = (externalUserId: string, role = 'ATTENDEE') =>
    suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId, displayName: externalUserId, role },
    });
  participantToken = (await join('host', 'HOST')).body.token;
  const parked = (await join('guest')).body;
  admission = {
    path: `/api/v1/rooms/${room.id}/participants/${parked.participant.id}/admission`,
    secret: new URL(parked.admissionUrl).hash.slice(1),
  };
});

const from = (address: string, opts: ApiOptions = {}): ApiOptions => ({
  ...opts,
  headers: { ...opts.headers, 'x-forwarded-for': address },
});

/** Sends the wrong credential until the budget is spent, then checks the refusal and who it reaches. */
async function spend(
  address: string,
  wrong: () => Promise<{ status: number }>,
  refusedWith: number,
  right: (address: string) => Promise<{ status: number }>,
) {
  for (let i = 0; i < FAILED_CREDENTIALS_PER_ADDRESS; i++) expect((await wrong()).status).toBe(refusedWith);
  const limited = (await wrong()) as { status: number; headers: Headers; body: { error: { code: string } } };
  expect([limited.status, limited.body.error.code]).toEqual([429, 'RATE_LIMITED']);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await right(address)).status).toBe(429); // the address is refused before any check
  expect((await right('203.0.113.250')).status).toBe(200); // another address is not
}

it('API keys', async () => {
  const a = '203.0.113.1';
  await spend(
    a,
    () => suite.api('GET', '/api/v1/tenant', from(a, { key: 'cv_live_not-a-real-key-000000000000000000' })),
    401,
    (address) => suite.api('GET', '/api/v1/tenant', from(address, { key: t.key })),
  );
});

it('provider keys', async () => {
  const a = '203.0.113.2';
  await spend(
    a,
    () =>
      suite.api(
        'GET',
        '/api/v1/provider/tenants',
        from(a, { providerKey: 'cv_prov_not-a-real-key-00000000000000000' }),
      ),
    401,
    (address) => suite.api('GET', '/api/v1/provider/tenants', from(address, { providerKey: t.providerKey })),
  );
});

it('participant tokens (chat)', async () => {
  const a = '203.0.113.3';
  await spend(
    a,
    () => suite.api('GET', '/api/v1/chat/messages', from(a, { bearer: 'not.a.token' })),
    401,
    (address) => suite.api('GET', '/api/v1/chat/messages', from(address, { bearer: participantToken })),
  );
});

it('admission secrets (a wrong one is 404)', async () => {
  const a = '203.0.113.4';
  await spend(
    a,
    () => suite.api('GET', admission.path, from(a, { bearer: 'adm_wrong' })),
    404,
    (address) => suite.api('GET', admission.path, from(address, { bearer: admission.secret })),
  );
});

it('a missing credential is not a guess: it never spends the budget', async () => {
  const a = '203.0.113.5';
  for (let i = 0; i < FAILED_CREDENTIALS_PER_ADDRESS + 5; i++)
    expect((await suite.api('GET', '/api/v1/tenant', from(a))).status).toBe(401);
  expect((await suite.api('GET', '/api/v1/tenant', from(a, { key: t.key }))).status).toBe(200);
});
