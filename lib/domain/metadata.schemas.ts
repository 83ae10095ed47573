import { z } from 'zod';

/**
 * Tenant-supplied metadata (externalMetadata, callerMetadata): any JSON object, bounded so one
 * request cannot make a pathological row. Documented in the API reference and docs/limits.md.
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
