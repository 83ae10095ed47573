import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { frameAncestorsFor, frameAncestorsPolicy } from '@/lib/domain/embedding';

// The policy proxy.ts applies to /join and /join/waiting (the e2e suite checks it is wired).
const suite = useSuite();

describe('who may frame the hosted call UI', () => {
  it("a participant's token allows exactly its tenant's origins; anything unknown allows none", async () => {
    const t = await seedTenant({ frameAncestors: ['https://app.acme.example', 'https://admin.acme.example'] });
    const other = await seedTenant();
    const room = (
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', enableWaitingRoom: true },
      })
    ).body;
    const joined = (
      await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
        key: t.key,
        body: { externalUserId: 'h', displayName: 'H', role: 'HOST' },
      })
    ).body;
    const parked = (
      await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
        key: t.key,
        body: { externalUserId: 'g', displayName: 'G' },
      })
    ).body;
    expect(frameAncestorsPolicy(await frameAncestorsFor({ token: joined.token }))).toBe(
      'frame-ancestors https://app.acme.example https://admin.acme.example',
    );
    expect(await frameAncestorsFor({ participantId: parked.participant.id })).toEqual([
      'https://app.acme.example',
      'https://admin.acme.example',
    ]);
    const otherRoom = (await suite.api('POST', '/api/v1/rooms', { key: other.key, body: { createdByExternalId: 'u' } }))
      .body;
    const otherJoin = (
      await suite.api('POST', `/api/v1/rooms/${otherRoom.id}/join`, {
        key: other.key,
        body: { externalUserId: 'x', displayName: 'X' },
      })
    ).body;
    expect(frameAncestorsPolicy(await frameAncestorsFor({ token: otherJoin.token }))).toBe("frame-ancestors 'none'");
    expect(await frameAncestorsFor({ token: 'garbage' })).toEqual([]);
    expect(await frameAncestorsFor({})).toEqual([]);
  });

  it('a provider sets the allowlist; only origins are accepted', async () => {
    const t = await seedTenant();
    const ok = await suite.api('PATCH', `/api/v1/provider/tenants/${t.tenant.id}`, {
      providerKey: t.providerKey,
      body: { frameAncestors: ['https://lms.example.edu'] },
    });
    expect(ok.body.frameAncestors).toEqual(['https://lms.example.edu']);
    const bad = await suite.api('PATCH', `/api/v1/provider/tenants/${t.tenant.id}`, {
      providerKey: t.providerKey,
      body: { frameAncestors: ["https://x.example/path'; script-src *"] },
    });
    expect(bad.status).toBe(400);
  });
});
