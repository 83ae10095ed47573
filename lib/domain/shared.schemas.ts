import { z } from 'zod';

/**
 * What every area's schemas share. Each area keeps its request and response schemas beside its
 * domain module (rooms.ts ↔ rooms.schemas.ts); this module holds only the common parts: the
 * registry of named response shapes, the list page, and the field schemas that recur across areas.
 *
 * Response schemas are the shapes the view functions return, and the source of the API
 * reference's success responses. The views are typed with them (z.output), and route() checks each
 * handler's result against its `response` schema at compile time, so the document cannot drift
 * from what is sent. They are never run on a response in production: documentation and tests only.
 *
 * No Prisma runtime here: the hosted call UI's bundle reaches this module through
 * branding.schemas.ts.
 */

/** Every named response shape: the OpenAPI document emits one component per name and $refs to it. */
export const responseComponents = z.registry<{ id: string; description?: string }>();

export function named<S extends z.ZodType>(id: string, description: string, schema: S): S {
  responseComponents.add(schema, { id, description });
  return schema;
}

/** A list page: newest first unless stated; nextCursor null on the last page (and for unpaginated lists). */
export function page<S extends z.ZodType>(id: string, item: S, what: string) {
  return named(id, `A page of ${what}.`, z.object({ data: z.array(item), nextCursor: z.string().nullable() }));
}

// ───────────────────────────── request fields ─────────────────────────────

/** One of our ids (a room, a poll option, a participant) in a body or a query. */
export const resourceId = z.string().min(1).max(64);
/** The integrator's own id for a user or a record. */
export const externalId = z.string().trim().min(1).max(200);
/** A person's name as shown to others. */
export const displayName = z.string().trim().min(1).max(100);
/** An ISO 8601 date-time with an offset, read as a Date. */
export const timestampInput = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
/** Who acts (closing a poll, dismissing a question): the tenant's backend vouches for them. */
export const actorInput = z.object({ actorExternalId: externalId });

/**
 * Tenant-supplied metadata (externalMetadata, callerMetadata): any JSON object, bounded so one
 * request cannot make a pathological row. Documented in the API reference and docs/rooms.md.
 */
export const MAX_METADATA_DEPTH = 8;
export const MAX_METADATA_KEYS = 200;

function measure(value: unknown): { depth: number; keys: number } {
  let depth = 0;
  let keys = 0;
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 1 }];
  while (stack.length) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    depth = Math.max(depth, d);
    const children = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) keys += children.length;
    for (const child of children) stack.push({ v: child, d: d + 1 });
  }
  return { depth, keys };
}

export const metadataObject = z
  .record(z.string().max(200), z.unknown())
  .superRefine((value, ctx) => {
    const { depth, keys } = measure(value);
    if (depth > MAX_METADATA_DEPTH)
      ctx.addIssue({ code: 'custom', message: `nested deeper than ${MAX_METADATA_DEPTH} levels` });
    if (keys > MAX_METADATA_KEYS)
      ctx.addIssue({ code: 'custom', message: `more than ${MAX_METADATA_KEYS} keys in all` });
  })
  .describe(
    `Any JSON object: at most ${MAX_METADATA_DEPTH} levels deep and ${MAX_METADATA_KEYS} keys in all (keys up to 200 characters).`,
  );

// ───────────────────────────── response fields ─────────────────────────────

export const timestamp = z.iso.datetime();
export const nullableTimestamp = timestamp.nullable();
/** Metadata as sent back: any JSON value the integrator stored (object, or null when unset). */
export const storedMetadata = z.unknown().describe('Any JSON value, as stored by the integrator (null when unset).');
