/**
 * The hosted call UI's per-tenant feature switches (reactions, raise hand, backgrounds, noise
 * suppression) and virtual background images, set through the branding API: stored, resolved over
 * the provider's default, on by default, validated (https URLs, at most ten), and handed to the
 * hosted pages.
 */
import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { hostedUiContext } from '@/lib/domain/embedding';
import { MAX_VIRTUAL_BACKGROUNDS } from '@/lib/domain/branding.schemas';

const suite = useSuite();

/** The fields the error names (a value of the wrong type is named once per type it could have had). */
const fields = (res: { body: { error?: { details?: { field: string }[] } } }) => [
  ...new Set(res.body.error?.details?.map((d) => d.field) ?? []),
];

async function joinSomeone(key: string) {
  const room = (await suite.api('POST', '/api/v1/rooms', { key, body: { createdByExternalId: 'u' } })).body;
  return (
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key,
      body: { externalUserId: `p${Math.random()}`, displayName: 'P' },
    })
  ).body as { token: string };
}

describe('feature switches and virtual backgrounds in the branding', () => {
  it('are on (and empty) by default; a tenant switches features off and lists its images; null falls back', async () => {
    const t = await seedTenant();
    const before = await suite.api('GET', '/api/v1/tenant/branding', { key: t.key });
    expect(before.body).toMatchObject({ reactionsEnabled: null, virtualBackgrounds: null });
    expect(before.body.effective).toMatchObject({
      virtualBackgrounds: [],
      reactionsEnabled: true,
      raiseHandEnabled: true,
      backgroundsEnabled: true,
      noiseSuppressionEnabled: true,
    });

    const images = ['https://cdn.acme.example/office.jpg', 'https://cdn.acme.example/beach.png'];
    const set = await suite.api('PATCH', '/api/v1/tenant/branding', {
      key: t.key,
      body: { reactionsEnabled: false, noiseSuppressionEnabled: false, virtualBackgrounds: images },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.effective).toMatchObject({
      virtualBackgrounds: images,
      reactionsEnabled: false,
      raiseHandEnabled: true,
      backgroundsEnabled: true,
      noiseSuppressionEnabled: false,
    });
    // The hosted page gets the same switches.
    const joined = await joinSomeone(t.key);
    expect((await hostedUiContext({ token: joined.token })).branding).toMatchObject({
      virtualBackgrounds: images,
      reactionsEnabled: false,
      noiseSuppressionEnabled: false,
    });

    const cleared = await suite.api('PATCH', '/api/v1/tenant/branding', {
      key: t.key,
      body: { reactionsEnabled: null, virtualBackgrounds: null },
    });
    expect(cleared.body.effective).toMatchObject({
      virtualBackgrounds: [],
      reactionsEnabled: true,
      noiseSuppressionEnabled: false,
    });
  });

  it("the provider's default switches a feature off for its tenants unless a tenant turns it back on", async () => {
    const a = await seedTenant();
    const b = await seedTenant({ providerId: a.provider.id });
    const def = await suite.api('PATCH', '/api/v1/provider/branding', {
      providerKey: a.providerKey,
      body: { raiseHandEnabled: false, backgroundsEnabled: false },
    });
    expect(def.status, JSON.stringify(def.body)).toBe(200);
    await suite.api('PATCH', '/api/v1/tenant/branding', { key: a.key, body: { backgroundsEnabled: true } });
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: a.key })).body.effective).toMatchObject({
      raiseHandEnabled: false,
      backgroundsEnabled: true,
    });
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: b.key })).body.effective).toMatchObject({
      raiseHandEnabled: false,
      backgroundsEnabled: false,
    });
  });

  it('refuses bad switches and image lists with 400 VALIDATION_FAILED naming the field, and writes nothing', async () => {
    const t = await seedTenant();
    await suite.api('PATCH', '/api/v1/tenant/branding', {
      key: t.key,
      body: { virtualBackgrounds: ['https://cdn.acme.example/kept.png'] },
    });
    const tooMany = Array.from({ length: MAX_VIRTUAL_BACKGROUNDS + 1 }, (_, i) => `https://cdn.acme.example/${i}.png`);
    const cases: [Record<string, unknown>, string][] = [
      [{ reactionsEnabled: 'no' }, 'reactionsEnabled'],
      [{ noiseSuppressionEnabled: 0 }, 'noiseSuppressionEnabled'],
      [{ virtualBackgrounds: 'https://cdn.acme.example/a.png' }, 'virtualBackgrounds'],
      [{ virtualBackgrounds: tooMany }, 'virtualBackgrounds'],
      [{ virtualBackgrounds: ['http://cdn.acme.example/a.png'] }, 'virtualBackgrounds.0'],
      [
        { virtualBackgrounds: ['https://ok.example/a.png', 'https://x.example/a.png") ; x:url(y'] },
        'virtualBackgrounds.1',
      ],
      [{ virtualBackgrounds: [42] }, 'virtualBackgrounds.0'],
    ];
    for (const [body, field] of cases) {
      const res = await suite.api('PATCH', '/api/v1/tenant/branding', { key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(fields(res), JSON.stringify(body)).toEqual([field]);
    }
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: t.key })).body.virtualBackgrounds).toEqual([
      'https://cdn.acme.example/kept.png',
    ]);
  });
});
