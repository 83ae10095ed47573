/**
 * The short soak (the full one is `npm run soak`): mixed traffic while its own PostgreSQL
 * restarts once and the app is SIGKILLed and restarted once, with a hostile tenant and a hostile
 * participant at work for the whole run (bench/soak-hostile.ts). This file does not use useSuite():
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
    // The hostile tenant tried (refused destinations, over the plan, a running recording) and started
    // nothing beyond its plan; the hostile participant flooded and its bad join requests were refused.
    const { tenant, participant } = result.hostile;
    expect(tenant.rounds).toBeGreaterThan(0);
    expect([tenant.refusedDestinations > 0, tenant.overQuota > 0, tenant.recordingConflicts > 0]).toEqual([
      true,
      true,
      true,
    ]);
    expect(tenant.startedBeyondPlan).toEqual([]);
    expect(participant.connections).toBeGreaterThan(0);
    expect(participant.dataPackets).toBeGreaterThan(100);
    expect(participant.badJoins).toBeGreaterThan(2);
    expect(participant.slowJoins).toEqual([]);
    expect(result.ok).toBe(true);
  }, 180_000);
});
