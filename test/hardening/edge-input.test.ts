import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';
import { MAX_JSON_DEPTH } from '@/lib/http/body';
import { MAX_METADATA_DEPTH, MAX_METADATA_KEYS } from '@/lib/domain/shared.schemas';

// PostgreSQL refuses NUL in text and unpaired surrogates in jsonb: they are refused at the edge
// (400 VALIDATION_FAILED naming the field; 404 for a path id), never a 500. Deep or huge JSON
// is bounded.
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string };
let participantToken: string;

beforeAll(async () => {
  t = await seedTenant({ plan: 'enterprise' });
  room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
  participantToken = (
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'mod', displayName: 'Mod', role: 'MODERATOR' },
    })
  ).body.token;
});

const NUL = '\u0000';
const LONE = '\ud800';

function expectField(res: { status: number; body: any }, field: string) {
  expect([res.status, res.body?.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
}

describe('NUL and unpaired surrogates in JSON bodies', () => {
  const cases: [string, string, string, () => Record<string, unknown>, 'key' | 'provider' | 'participant'][] = [
    ['POST', '/api/v1/rooms', 'createdByExternalId', () => ({ createdByExternalId: `u${NUL}` }), 'key'],
    ['POST', '/api/v1/rooms', 'name', () => ({ createdByExternalId: 'u', name: `a${LONE}b` }), 'key'],
    [
      'POST',
      '/api/v1/rooms/{room}/join',
      'displayName',
      () => ({ externalUserId: 'x', displayName: `A${NUL}` }),
      'key',
    ],
    [
      'POST',
      '/api/v1/rooms/{room}/join',
      'externalMetadata."k\\u0000"',
      () => ({ externalUserId: 'x', displayName: 'A', externalMetadata: { [`k${NUL}`]: 1 } }),
      'key',
    ],
    [
      'POST',
      '/api/v1/rooms/{room}/join',
      'externalMetadata.deep.0.v',
      () => ({ externalUserId: 'x', displayName: 'A', externalMetadata: { deep: [{ v: `x${NUL}` }] } }),
      'key',
    ],
    [
      'POST',
      '/api/v1/calls',
      'queueName',
      () => ({ callerExternalId: 'c', callerDisplayName: 'C', queueName: `q${NUL}` }),
      'key',
    ],
    [
      'POST',
      '/api/v1/polls',
      'question',
      () => ({ roomId: room.id, createdByExternalId: 'mod', question: `Q${NUL}`, options: ['a', 'b'] }),
      'key',
    ],
    ['POST', '/api/v1/questions', 'text', () => ({ roomId: room.id, text: `T${NUL}`, askerExternalId: 'a' }), 'key'],
    ['POST', '/api/v1/provider/tenants', 'name', () => ({ name: `N${NUL}` }), 'provider'],
    [
      'POST',
      '/api/v1/rooms/{room}/mute-all',
      'actingExternalUserId',
      () => ({ actingExternalUserId: `m${NUL}` }),
      'key',
    ],
    ['POST', '/api/v1/questions/public', 'text', () => ({ text: `T${LONE}` }), 'participant'],
  ];
  it.each(cases)('%s %s → 400 naming %s', async (method, path, field, body, cred) => {
    const opts =
      cred === 'key'
        ? { key: t.key }
        : cred === 'provider'
          ? { providerKey: t.providerKey! }
          : { bearer: participantToken };
    const res = await suite.api(method, path.replace('{room}', room.id), { ...opts, body: body() });
    expectField(res, field);
  });
});

describe('NUL in query values and path segments', () => {
  it.each([
    ['/api/v1/rooms?externalId=%00', 'externalId'],
    ['/api/v1/calls?queueName=%00', 'queueName'],
    ['/api/v1/calls?skills=%00', 'skills'],
    ['/api/v1/polls?roomId=%00', 'roomId'],
    ['/api/v1/rooms?cursor=%00', 'cursor'],
  ])('GET %s → 400 naming %s', async (path, field) => {
    expectField(await suite.api('GET', path, { key: t.key }), field);
  });

  it('a garbage cursor whose id holds NUL → 400', async () => {
    const cursor = Buffer.from(JSON.stringify([new Date().toISOString(), `x${NUL}`])).toString('base64url');
    expectField(await suite.api('GET', `/api/v1/rooms?cursor=${cursor}`, { key: t.key }), 'cursor');
  });

  it.each([
    '/api/v1/rooms/%00',
    '/api/v1/calls/%00',
    '/api/v1/webhooks/deliveries/%00',
    '/api/v1/rooms/%00/participants',
    `/api/v1/rooms/${'x'.repeat(300)}`,
  ])('GET %s → 404 NOT_FOUND', async (path) => {
    const res = await suite.api('GET', path, { key: t.key });
    expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('GET /rooms/%00/info (no credential) → 404', async () => {
    const res = await suite.api('GET', '/api/v1/rooms/%00/info');
    expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('deep and huge JSON', () => {
  it(`nesting deeper than ${MAX_JSON_DEPTH} levels anywhere in a body → 400, fast`, async () => {
    const deep = '['.repeat(2200) + ']'.repeat(2200);
    const started = Date.now();
    const res = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      rawBody: `{"externalUserId":"x","displayName":"A","externalMetadata":{"a":${deep}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it(`metadata deeper than ${MAX_METADATA_DEPTH} levels → 400 naming externalMetadata; at the bound it is stored`, async () => {
    const nest = (n: number): Record<string, unknown> => (n <= 1 ? { leaf: true } : { a: nest(n - 1) });
    const over = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'deep', displayName: 'D', externalMetadata: nest(MAX_METADATA_DEPTH + 1) },
    });
    expectField(over, 'externalMetadata');
    const at = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'deep', displayName: 'D', externalMetadata: nest(MAX_METADATA_DEPTH) },
    });
    expect(at.status).toBe(200);
  });

  it(`metadata with more than ${MAX_METADATA_KEYS} keys in all → 400`, async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_METADATA_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    expectField(
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', externalMetadata: many },
      }),
      'externalMetadata',
    );
  });

  it('nothing was written by any refused request', async () => {
    expect(await db().participant.count({ where: { roomId: room.id, externalUserId: 'x' } })).toBe(0);
  });
});
