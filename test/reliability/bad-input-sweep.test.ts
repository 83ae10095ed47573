/**
 * Every operation in the OpenAPI document, fed bad input: wrong credential kinds, malformed JSON,
 * wrong content types, oversize and wrong-typed bodies, unknown ids, bad query values. Every
 * answer must be a documented 4xx with the error envelope — never a 5xx — and nothing is written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite();
let tenantKey: string;
let providerKey: string;
let participantToken: string;
let doc: { paths: Record<string, Record<string, { security: Record<string, unknown>[]; requestBody?: unknown; parameters: { name: string; in: string }[] }>> };

beforeAll(async () => {
  const t = await seedTenant({ plan: 'enterprise', entitlementOverrides: { apiRequestsPerSecond: 100_000 } });
  tenantKey = t.key;
  providerKey = t.providerKey!;
  const room = (await suite.api('POST', '/api/v1/rooms', { key: tenantKey, body: { createdByExternalId: 'u' } })).body;
  participantToken = (await suite.api('POST', `/api/v1/rooms/${room.id}/join`, { key: tenantKey, body: { externalUserId: 'p', displayName: 'P', role: 'HOST' } })).body.token;
  doc = (await suite.api('GET', '/api/v1/openapi.json')).body;
});

async function counts() {
  const c = db();
  return Promise.all([c.room.count(), c.participant.count(), c.call.count(), c.poll.count(), c.question.count(), c.webhookDelivery.count(), c.apiKey.count(), c.tenant.count(), c.breakout.count(), c.event.count()]);
}

describe('bad input sweep over the OpenAPI document', () => {
  it('answers every bad request with a 4xx envelope and writes nothing', async () => {
    const before = await counts();
    const problems: string[] = [];
    let checked = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const M = method.toUpperCase();
        const scheme = Object.keys(op.security[0] ?? {})[0] ?? 'none';
        const good = scheme === 'apiKey' ? { key: tenantKey } : scheme === 'providerKey' ? { providerKey } : scheme === 'participantToken' ? { bearer: participantToken } : {};
        const wrong = scheme === 'apiKey' ? { providerKey } : scheme === 'providerKey' ? { key: tenantKey } : scheme === 'participantToken' ? { key: tenantKey } : null;
        const path = template.replace(/\{(\w+)\}/g, 'unknown-id-000');
        const cases: [string, Parameters<typeof suite.api>[2], number[]][] = [];
        if (wrong) cases.push(['wrong credential kind', { ...wrong, body: M === 'GET' || M === 'DELETE' ? undefined : {} }, [401]]);
        if (op.requestBody) {
          cases.push(['malformed JSON', { ...good, rawBody: '{"oops":', headers: { 'content-type': 'application/json' } }, [400]]);
          cases.push(['wrong content type', { ...good, rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, [415]]);
          cases.push(['oversize body', { ...good, rawBody: JSON.stringify({ x: 'y'.repeat(70_000) }), headers: { 'content-type': 'application/json' } }, [413]]);
          cases.push(['wrong-typed body', { ...good, body: [1, 2, 3] }, [400]]);
          // Every bounded string field one character too long.
          const props = ((op.requestBody as { content: Record<string, { schema: { properties?: Record<string, { type?: string; maxLength?: number }> } }> }).content['application/json'].schema.properties ?? {});
          const tooLong = Object.entries(props).filter(([, p]) => p.type === 'string' && p.maxLength).map(([k, p]) => [k, 'x'.repeat(p.maxLength! + 1)]);
          if (tooLong.length) cases.push(['oversize strings', { ...good, body: Object.fromEntries(tooLong) }, [400]]);
        }
        if (template.includes('{')) cases.push(['unknown ids', { ...good, body: M === 'GET' || M === 'DELETE' ? undefined : {} }, [400, 404]]);
        if (op.parameters.some((p) => p.name === 'limit')) cases.push(['bad query', { ...good }, [400]]);
        for (const [label, opts, allowed] of cases) {
          const url = label === 'bad query' ? `${path}?limit=abc` : path;
          const res = await suite.api(M, url, opts);
          checked++;
          const envelope = res.body?.error?.code && res.body.error.requestId;
          if (!allowed.includes(res.status) || !envelope) problems.push(`${M} ${template} [${label}] → ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(250);
    expect(await counts()).toEqual(before);
  }, 120_000);
});
