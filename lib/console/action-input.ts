import { z } from 'zod';
import { assertPathIds, assertStorableJson } from '@/lib/http/body';

/**
 * Console server actions take their input from the browser like the API does, so it passes the
 * API's edge checks: no NUL or unpaired surrogate anywhere, bounded nesting, then the API's own
 * schema. A refusal is an ApiError (VALIDATION_FAILED naming the field) or a ZodError, which the
 * action turns into a message; never a database error.
 */
export function parseActionInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  assertStorableJson(input);
  return schema.parse(input);
}

/** An id that cannot be one of ours is not found (404 semantics), as an unknown id is. */
export function parseActionId(value: unknown): string {
  const id = z.string().parse(value);
  assertPathIds({ id });
  return id;
}
