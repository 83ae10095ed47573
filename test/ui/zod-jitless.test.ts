/**
 * The pages' CSP forbids eval, and Zod probes for it (`new Function("")`) as its first object
 * schema is made unless it runs jitless — a probe Firefox reports as a CSP violation. The browser's
 * instrumentation sets jitless through Zod's global configuration without importing Zod, so Zod
 * stays out of pages that never make a schema. This holds Zod to reading that configuration.
 */
import { expect, it, vi } from 'vitest';

it('Zod loaded after the instrumentation runs jitless and never probes for eval', async () => {
  await import('@/instrumentation-client');
  const probe = vi.spyOn(globalThis, 'Function');
  const { z, config } = await import('zod');
  expect(config().jitless).toBe(true);
  const schema = z.object({ name: z.string(), count: z.number().int() });
  expect(schema.parse({ name: 'a', count: 1 })).toEqual({ name: 'a', count: 1 });
  expect(schema.safeParse({ name: 'a', count: 1.5 }).success).toBe(false);
  expect(probe).not.toHaveBeenCalled();
});
