import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import type { ApiResponse } from '../support/app';
import { db } from '@/lib/db';
import { frameAncestorsPolicy } from '@/lib/domain/embedding';
import { PARTICIPANT_REQUESTS_PER_SECOND, PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND } from '@/lib/http/rate-limit';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string };
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await seedTenant({ plan: 'enterprise' });
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
  for (const [name, role] of [
    ['host', 'HOST'],
    ['amy', 'ATTENDEE'],
    ['vic', 'VIEWER'],
    ['rl', 'ATTENDEE'],
  ] as const) {
    const joined = (
      await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
        key: t.key,
        body: { externalUserId: name, displayName: name, role, externalMetadata: { crmNote: `secret about ${name}` } },
      })
    ).body;
    tokens[name] = joined.token;
    ids[name] = joined.participant.id;
  }
});

describe('frameAncestors: only normalised origins reach the CSP header', () => {
  it.each([
    'https://a.com;sandbox',
    "https://b.com'",
    'https://c.com,d',
    'https://*',
    'https://*.com',
    'https://a.com/path',
    'javascript:alert(1)',
    'https://a.com b.com',
    'https://user@a.com',
  ])('refuses %s with 400 naming frameAncestors', async (value) => {
    const res = await suite.api('PATCH', `/api/v1/provider/tenants/${t.tenant.id}`, {
      providerKey: t.providerKey,
      body: { frameAncestors: [value] },
    });
    expect([res.status, res.body.error?.details?.[0]?.field]).toEqual([400, 'frameAncestors.0']);
  });
  it('stores origins normalised (case, default port, trailing slash), wildcard subdomains allowed', async () => {
    const res = await suite.api('PATCH', `/api/v1/provider/tenants/${t.tenant.id}`, {
      providerKey: t.providerKey,
      body: { frameAncestors: ['HTTPS://App.Example.com:443/', 'https://*.Example.org', 'http://localhost:3000'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.frameAncestors).toEqual([
      'https://app.example.com',
      'https://*.example.org',
      'http://localhost:3000',
    ]);
  });
  it('a stored value from before the rule never reaches the header', () => {
    expect(frameAncestorsPolicy(['https://ok.example', 'https://a.com;sandbox'])).toBe(
      'frame-ancestors https://ok.example',
    );
    expect(frameAncestorsPolicy(["https://b.com'"])).toBe("frame-ancestors 'none'");
  });
});

/**
 * Sends bursts of twice the limit at once until one of them meets a 429 (at most five). A single
 * burst of limit + 5 is not enough on a loaded machine: when the server takes longer than a second
 * to answer it, the requests fall into two windows and none is over the limit.
 */
async function burstUntilLimited(limit: number, send: (i: number) => Promise<ApiResponse>) {
  const all: ApiResponse[] = [];
  for (let burst = 0; burst < 5; burst++) {
    const results = await Promise.all(Array.from({ length: limit * 2 }, (_, i) => send(burst * limit * 2 + i)));
    all.push(...results);
    if (results.some((r) => r.status === 429)) break;
  }
  return { succeeded: all.filter((r) => r.status === 200), limited: all.filter((r) => r.status === 429), all };
}

describe('rate limits on participant-token and public endpoints', () => {
  it(`participant-token endpoints: ${PARTICIPANT_REQUESTS_PER_SECOND}/s per participant, with x-ratelimit-* headers`, async () => {
    const { succeeded, limited, all } = await burstUntilLimited(PARTICIPANT_REQUESTS_PER_SECOND, () =>
      suite.api('GET', '/api/v1/me', { bearer: tokens.rl }),
    );
    expect(all.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(succeeded[0].headers.get('x-ratelimit-limit')).toBe(String(PARTICIPANT_REQUESTS_PER_SECOND));
    expect(succeeded[0].headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].body.error.code).toBe('RATE_LIMITED');
    expect(limited[0].headers.get('retry-after')).not.toBeNull();
    // Another participant's budget is its own.
    expect((await suite.api('GET', '/api/v1/me', { bearer: tokens.vic })).status).toBe(200);
  });
  it(`GET /rooms/{id}/info (no credential): ${PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND}/s per address, X-Forwarded-For ignored`, async () => {
    // Every request claims another forwarded address: the limit still counts them as one client.
    const { succeeded, limited, all } = await burstUntilLimited(PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND, (i) =>
      suite.api('GET', `/api/v1/rooms/${room.id}/info`, { headers: { 'x-forwarded-for': `198.51.100.${i % 250}` } }),
    );
    expect(all.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(succeeded[0].headers.get('x-ratelimit-limit')).toBe(String(PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND));
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].body.error.code).toBe('RATE_LIMITED');
  });
});

describe('what participants see', () => {
  it('GET /polls/public: drafts for hosts and moderators only', async () => {
    const draft = await suite.api('POST', '/api/v1/polls/public', {
      bearer: tokens.host,
      body: { question: 'Draft?', options: ['a', 'b'] },
    });
    expect(draft.body.status).toBe('DRAFT');
    await suite.api('POST', '/api/v1/polls/public', {
      bearer: tokens.host,
      body: { question: 'Open?', options: ['a', 'b'], status: 'OPEN' },
    });
    const hostView = await suite.api('GET', '/api/v1/polls/public', { bearer: tokens.host });
    expect(hostView.body.data.map((p: { question: string }) => p.question)).toEqual(['Open?', 'Draft?']);
    for (const who of ['amy', 'vic']) {
      const list = await suite.api('GET', '/api/v1/polls/public', { bearer: tokens[who] });
      expect(list.body.data.map((p: { question: string }) => p.question)).toEqual(['Open?']);
    }
  });
  it('a DRAFT poll is sent on the data channel to moderators only', async () => {
    const before = suite.media.callsTo('SendData').length;
    await suite.api('POST', '/api/v1/polls/public', {
      bearer: tokens.host,
      body: { question: 'Quiet draft', options: ['a', 'b'] },
    });
    const sent = suite.media.callsTo('SendData').slice(before);
    expect(sent.length).toBe(1);
    const host = await db().participant.findUniqueOrThrow({ where: { id: ids.host } });
    expect(JSON.stringify(sent[0].body)).toContain(host.mediaIdentity);
    const amy = await db().participant.findUniqueOrThrow({ where: { id: ids.amy } });
    expect(JSON.stringify(sent[0].body)).not.toContain(amy.mediaIdentity);
  });
  it('externalMetadata is never shown to the participant (/me)', async () => {
    const me = await suite.api('GET', '/api/v1/me', { bearer: tokens.amy });
    expect(me.status).toBe(200);
    expect(me.text).not.toContain('secret about');
    expect(me.body.participant.externalMetadata).toBeNull();
    // The tenant still reads it.
    const tenantView = await suite.api('GET', `/api/v1/rooms/${room.id}/participants/${ids.amy}`, { key: t.key });
    expect(tenantView.body.externalMetadata).toEqual({ crmNote: 'secret about amy' });
  });
  it('externalMetadata is never shown on the admission poll with the admission secret', async () => {
    const waitingRoom = (
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', enableWaitingRoom: true },
      })
    ).body;
    const parked = (
      await suite.api('POST', `/api/v1/rooms/${waitingRoom.id}/join`, {
        key: t.key,
        body: { externalUserId: 'g', displayName: 'G', externalMetadata: { crmNote: 'secret about g' } },
      })
    ).body;
    const secret = new URL(parked.admissionUrl).hash.slice(1);
    const res = await suite.api(
      'GET',
      `/api/v1/rooms/${waitingRoom.id}/participants/${parked.participant.id}/admission`,
      { bearer: secret },
    );
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('secret about');
    const tenantPoll = await suite.api(
      'GET',
      `/api/v1/rooms/${waitingRoom.id}/participants/${parked.participant.id}/admission`,
      { key: t.key },
    );
    expect(tenantPoll.body.participant.externalMetadata).toEqual({ crmNote: 'secret about g' });
  });
});

describe('lists of polls, questions, tenant keys and breakouts are paged', () => {
  it('questions: limit and cursor, both sorts', async () => {
    for (let i = 0; i < 5; i++)
      await suite.api('POST', '/api/v1/questions/public', { bearer: tokens.amy, body: { text: `Q${i}` } });
    for (const sort of ['recent', 'upvotes']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await suite.api(
          'GET',
          `/api/v1/questions?roomId=${room.id}&sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          { key: t.key },
        );
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.map((q: { id: string }) => q.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(new Set(seen).size).toBe(5);
      expect(seen).toHaveLength(5);
    }
    const publicPage = await suite.api('GET', '/api/v1/questions/public?limit=1', { bearer: tokens.amy });
    expect(publicPage.body.data).toHaveLength(1);
    expect(publicPage.body.nextCursor).toEqual(expect.any(String));
  });
  it('polls, tenant keys, provider keys, breakouts: limit=1 gives one and a cursor', async () => {
    expect(
      (
        await suite.api('POST', `/api/v1/provider/tenants/${t.tenant.id}/api-keys`, {
          providerKey: t.providerKey,
          body: { name: 'second' },
        })
      ).status,
    ).toBe(201);
    expect(
      await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
        key: t.key,
        body: { name: 'B1', createdByExternalId: 'host' },
      }),
    ).toMatchObject({ status: 201 });
    expect(
      await suite.api('POST', `/api/v1/rooms/${room.id}/breakouts`, {
        key: t.key,
        body: { name: 'B2', createdByExternalId: 'host' },
      }),
    ).toMatchObject({ status: 201 });
    for (const [path, opts] of [
      [`/api/v1/polls?roomId=${room.id}&limit=1`, { key: t.key }],
      ['/api/v1/polls/public?limit=1', { bearer: tokens.host }],
      ['/api/v1/tenant/keys?limit=1', { key: t.key }],
      [`/api/v1/provider/tenants/${t.tenant.id}/api-keys?limit=1`, { providerKey: t.providerKey }],
      [`/api/v1/rooms/${room.id}/breakouts?limit=1`, { key: t.key }],
    ] as const) {
      const res = await suite.api('GET', path, opts);
      expect([path, res.status, res.body.data?.length, typeof res.body.nextCursor]).toEqual([path, 200, 1, 'string']);
      const next = await suite.api('GET', `${path}&cursor=${res.body.nextCursor}`, opts);
      expect([path, next.status, next.body.data?.[0]?.id === res.body.data[0].id]).toEqual([path, 200, false]);
    }
  });
  it.each([
    ['/api/v1/polls?roomId={room}&limit=-1', 'limit'],
    ['/api/v1/polls?roomId={room}&cursor=garbage', 'cursor'],
    ['/api/v1/questions?roomId={room}&limit=-1', 'limit'],
    ['/api/v1/questions?roomId={room}&cursor=garbage', 'cursor'],
    ['/api/v1/questions?roomId={room}&sort=upvotes&cursor=garbage', 'cursor'],
    ['/api/v1/tenant/keys?limit=-1', 'limit'],
    ['/api/v1/tenant/keys?cursor=garbage', 'cursor'],
    ['/api/v1/rooms/{room}/breakouts?limit=0', 'limit'],
    ['/api/v1/rooms/{room}/breakouts?cursor=garbage', 'cursor'],
  ])('%s → 400 naming %s', async (path, field) => {
    const res = await suite.api('GET', path.replace('{room}', room.id), { key: t.key });
    expect([res.status, res.body.error?.details?.[0]?.field]).toEqual([400, field]);
  });
});

describe('Idempotency-Key compares the body canonically', () => {
  it('the same fields in another order (and other whitespace) replay; another value is 409', async () => {
    const headers = { 'idempotency-key': `canon-${Date.now()}`, 'content-type': 'application/json' };
    const first = await suite.api('POST', '/api/v1/rooms', {
      key: t.key,
      headers,
      rawBody: '{"createdByExternalId":"u","name":"Canon","externalMetadata":{"a":1,"b":[1,2]}}',
    });
    expect(first.status).toBe(201);
    const reordered = await suite.api('POST', '/api/v1/rooms', {
      key: t.key,
      headers,
      rawBody: '{ "externalMetadata": {"b":[1,2], "a":1}, "name": "Canon", "createdByExternalId": "u" }',
    });
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.id).toBe(first.body.id);
    const arrayOrder = await suite.api('POST', '/api/v1/rooms', {
      key: t.key,
      headers,
      rawBody: '{"createdByExternalId":"u","name":"Canon","externalMetadata":{"a":1,"b":[2,1]}}',
    });
    expect([arrayOrder.status, arrayOrder.body.error.code]).toEqual([409, 'CONFLICT']);
  });
});
