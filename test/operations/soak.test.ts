/**
 * The short soak (the full one is `npm run soak`): mixed traffic while its own PostgreSQL
 * restarts once and the app is SIGKILLed and restarted once. This file does not use useSuite():
 * it must own the database server it restarts, so bench/soak.ts starts an embedded PostgreSQL of
 * its own (never the machine's shared one) and its own app process.
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from '../../bench/soak';

describe('soak under faults (short)', () => {
  it('answers every request with a success, a documented 4xx or a 503, and loses no webhook', async () => {
    const result = await runSoak({
      seconds: Number(process.env.SOAK_TEST_SECONDS ?? 16),
      workers: 4,
      pgDownSeconds: 2,
      log: () => undefined,
    });
    expect(result.problems, result.table).toEqual([]);
    // The run did what it claims: traffic, a database outage answered 503, and the kill.
    expect(result.counts.success).toBeGreaterThan(50);
    expect(result.counts['503'] ?? 0).toBeGreaterThan(0);
    expect(result.ok).toBe(true);
  }, 180_000);
});
