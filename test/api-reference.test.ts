import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { useSuite } from './support/suite';
import { API_DOC, withErrorTable } from '../scripts/generate-error-table';
import { INDEX_FILE, renderIndex } from '../scripts/generate-route-index';
import { operations } from '@/lib/openapi/document';

const suite = useSuite();

describe('API reference', () => {
  it('the route index is up to date with app/api/v1 (run `npm run openapi:index`)', () => {
    expect(readFileSync(INDEX_FILE, 'utf8')).toBe(renderIndex());
  });

  it("docs/api.md's error table is the catalogue in lib/errors.ts (run `npm run docs:errors`)", () => {
    const doc = readFileSync(API_DOC, 'utf8');
    expect(doc).toBe(withErrorTable(doc));
  });

  it('serves OpenAPI 3.1 with an entry for every route and no entry without a route', async () => {
    const res = await suite.api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const routed = operations()
      .map((op) => `${op.method} ${op.path}`)
      .filter((k) => k !== 'GET /api/v1/openapi.json');
    expect(documented.sort()).toEqual(routed.sort());
    // Every operation carries its own section and summary, declared on its route.
    const declared = Object.values(doc.paths as Record<string, Record<string, { tags: string[]; summary: string }>>)
      .flatMap((ops) => Object.values(ops))
      .map((op) => [op.tags, op.summary] as const);
    for (const [tags, summary] of declared) {
      expect(tags).toHaveLength(1);
      expect(summary.length).toBeGreaterThan(8);
    }
  });

  it('describes auth, bodies from the zod schemas, and error codes', async () => {
    const doc = (await suite.api('GET', '/api/v1/openapi.json')).body;
    const join = doc.paths['/api/v1/rooms/{id}/join'].post;
    expect(join.security).toEqual([{ apiKey: [] }]);
    expect(join['x-permission']).toBe('rooms.write');
    const body = join.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['externalUserId', 'displayName']));
    expect(body.properties.role.enum).toEqual(['HOST', 'MODERATOR', 'ATTENDEE', 'VIEWER']);
    expect(body.properties.ttlSeconds).toMatchObject({ minimum: 60, maximum: 86400 });
    expect(join.responses['400'].description).toContain('VALIDATION_FAILED');
    expect(join.responses['404'].description).toContain('NOT_FOUND');
    expect(join.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'Idempotency-Key']);
    expect(doc.paths['/api/v1/rooms'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'status']),
    );
    expect(doc.paths['/api/v1/polls/public'].post.security).toEqual([{ participantToken: [] }]);
    expect(doc.paths['/api/v1/provider/tenants'].post.security).toEqual([{ providerKey: [] }]);
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain('ROOM_FULL');
  });
});
