/**
 * Checking real traffic against the API reference the running app serves: the document itself,
 * validators built from its JSON Schemas, and validation failures as readable lines.
 */
import { expect } from 'vitest';
import { z } from 'zod';
import type { Suite } from './suite';

export type JsonSchema = Record<string, unknown>;

/** GET /api/v1/openapi.json from the suite's app; anything but 200 fails the test. */
export async function servedDocument<D>(suite: Suite): Promise<D> {
  const res = await suite.api('GET', '/api/v1/openapi.json');
  expect(res.status).toBe(200);
  return res.body as D;
}

const toDefs = (o: unknown) => JSON.parse(JSON.stringify(o).replaceAll('"#/components/schemas/', '"#/$defs/'));

/** A zod validator from one of the document's JSON Schemas, its references to `components.schemas` resolved. */
export function validatorFor(schema: JsonSchema, components: Record<string, JsonSchema>): z.ZodType {
  return z.fromJSONSchema({ ...toDefs(schema), $defs: toDefs(components) });
}

/** A parse's issues as `path: message` lines, [] when it passed: what an expect prints on failure. */
export function problems(result: z.ZodSafeParseResult<unknown>): string[] {
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}
