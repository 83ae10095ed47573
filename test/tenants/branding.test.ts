/**
 * Hosted call UI branding: the tenant's own (PATCH /tenant/branding, or its provider's tenant
 * update) over the provider's default (PATCH /provider/branding) over Convene's; validation
 * names the field; the hosted pages see only the resolved, non-secret facts.
 */
import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { hostedUiContext } from '@/lib/domain/embedding';
import { CONVENE_BRANDING } from '@/lib/domain/branding.schemas';
import { createApiKey } from '@/lib/domain/keys';
import { db } from '@/lib/db';

const suite = useSuite();

const fields = (res: { body: { error?: { details?: { field: string }[] } } }) =>
  res.body.error?.details?.map((d) => d.field) ?? [];

describe('PATCH /api/v1/tenant/branding', () => {
  it('stores what is set, keeps what is omitted, clears what is null, and resolves the rest', async () => {
    const t = await seedTenant({ frameAncestors: ['https://lms.example.edu'] });
    const before = await suite.api('GET', '/api/v1/tenant/branding', { key: t.key });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      productName: null,
      logoUrl: null,
      accentColor: null,
      effective: CONVENE_BRANDING,
    });

    const set = await suite.api('PATCH', '/api/v1/tenant/branding', {
      key: t.key,
      body: {
        productName: 'Acme Meet',
        logoUrl: 'https://cdn.acme.example/logo.svg',
        accentColor: '#0B5CAD',
        backgroundColor: '#0f172a',
        defaultLanguage: 'de',
      },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      productName: 'Acme Meet',
      accentColor: '#0b5cad',
      backgroundImageUrl: null,
      defaultLanguage: 'de',
    });
    expect(set.body.effective).toEqual({
      productName: 'Acme Meet',
      logoUrl: 'https://cdn.acme.example/logo.svg',
      accentColor: '#0b5cad',
      backgroundColor: '#0f172a',
      backgroundImageUrl: null,
      defaultLanguage: 'de',
      virtualBackgrounds: [],
      reactionsEnabled: true,
      raiseHandEnabled: true,
      backgroundsEnabled: true,
      noiseSuppressionEnabled: true,
    });

    const partial = await suite.api('PATCH', '/api/v1/tenant/branding', { key: t.key, body: { logoUrl: null } });
    expect(partial.body).toMatchObject({ productName: 'Acme Meet', logoUrl: null, accentColor: '#0b5cad' });
    expect((await suite.api('GET', '/api/v1/tenant', { key: t.key })).body.branding).toMatchObject({
      productName: 'Acme Meet',
      logoUrl: null,
    });

    // What the hosted pages get: the resolved look and the frame-ancestors, nothing else.
    const joined = await joinSomeone(t.key);
    expect(await hostedUiContext({ token: joined.token })).toEqual({
      frameAncestors: ['https://lms.example.edu'],
      branding: { ...set.body.effective, logoUrl: null },
    });
  });

  it('refuses bad input with 400 VALIDATION_FAILED naming the field, and writes nothing', async () => {
    const t = await seedTenant();
    await suite.api('PATCH', '/api/v1/tenant/branding', { key: t.key, body: { productName: 'Kept' } });
    const cases: [Record<string, unknown>, string][] = [
      [{ logoUrl: 'http://cdn.acme.example/logo.png' }, 'logoUrl'],
      [{ logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
      [{ backgroundImageUrl: 'https://x.example/a.png") ; background:url(https://evil.example' }, 'backgroundImageUrl'],
      [{ accentColor: '#12345g' }, 'accentColor'],
      [{ accentColor: 'blue' }, 'accentColor'],
      [{ accentColor: '#ffe066' }, 'accentColor'], // white text on it: 1.3:1
      [{ backgroundColor: '#f8fafc' }, 'backgroundColor'],
      [{ productName: 'x'.repeat(61) }, 'productName'],
      [{ productName: '   ' }, 'productName'],
      [{ defaultLanguage: 'xx' }, 'defaultLanguage'],
      [{ logoURL: 'https://cdn.acme.example/logo.png' }, 'logoURL'],
      [{ productName: 'Fine', theme: 'dark' }, 'theme'],
    ];
    for (const [body, field] of cases) {
      const res = await suite.api('PATCH', '/api/v1/tenant/branding', { key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(fields(res), JSON.stringify(body)).toEqual([field]);
    }
    const tooLight = await suite.api('PATCH', '/api/v1/tenant/branding', {
      key: t.key,
      body: { accentColor: '#ffe066' },
    });
    expect(tooLight.body.error.message).toMatch(/contrast 1\.\d+:1 against #ffffff, needs at least 4.5:1/);
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: t.key })).body.productName).toBe('Kept');
  });

  it('needs tenant.manage to change and tenant.read to read', async () => {
    const t = await seedTenant();
    const { plainTextKey: readOnly } = await db().$transaction((tx) =>
      createApiKey(t.tenant, { tx, name: 'ro', permissions: ['tenant.read'] }),
    );
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: readOnly })).status).toBe(200);
    const refused = await suite.api('PATCH', '/api/v1/tenant/branding', {
      key: readOnly,
      body: { productName: 'Nope' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await suite.api('GET', '/api/v1/tenant/branding')).status).toBe(401);
  });
});

describe("the provider's default and its tenant update", () => {
  it('the default fills what a tenant leaves unset; the provider may set a tenant’s own', async () => {
    const a = await seedTenant();
    const b = await seedTenant({ providerId: a.provider.id });
    const def = await suite.api('PATCH', '/api/v1/provider/branding', {
      providerKey: a.providerKey,
      body: { productName: 'Reseller Video', accentColor: '#7c2d12' },
    });
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ productName: 'Reseller Video', accentColor: '#7c2d12', logoUrl: null });
    expect((await suite.api('GET', '/api/v1/provider/branding', { providerKey: a.providerKey })).body.productName).toBe(
      'Reseller Video',
    );

    const own = await suite.api('PATCH', '/api/v1/tenant/branding', { key: a.key, body: { productName: 'Acme Meet' } });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: a.key })).body.effective).toMatchObject({
      productName: 'Acme Meet',
      accentColor: '#7c2d12',
      backgroundColor: '#111111',
    });
    expect((await suite.api('GET', '/api/v1/tenant/branding', { key: b.key })).body.effective).toMatchObject({
      productName: 'Reseller Video',
      accentColor: '#7c2d12',
    });

    const updated = await suite.api('PATCH', `/api/v1/provider/tenants/${b.tenant.id}`, {
      providerKey: a.providerKey,
      body: { branding: { logoUrl: 'https://cdn.b.example/b.png', defaultLanguage: 'fr' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.branding).toMatchObject({
      logoUrl: 'https://cdn.b.example/b.png',
      defaultLanguage: 'fr',
      productName: null,
    });
    const joined = await joinSomeone(b.key);
    expect((await hostedUiContext({ token: joined.token })).branding).toMatchObject({
      productName: 'Reseller Video',
      logoUrl: 'https://cdn.b.example/b.png',
      defaultLanguage: 'fr',
    });

    const bad = await suite.api('PATCH', `/api/v1/provider/tenants/${b.tenant.id}`, {
      providerKey: a.providerKey,
      body: { branding: { accentColor: '#12345g' } },
    });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['branding.accentColor']);
    const unknown = await suite.api('PATCH', '/api/v1/provider/branding', {
      providerKey: a.providerKey,
      body: { colour: '#000000' },
    });
    expect(fields(unknown)).toEqual(['colour']);
  });

  it('an unknown token or participant gets Convene’s look and no framing', async () => {
    expect(await hostedUiContext({ token: 'nope' })).toEqual({ frameAncestors: [], branding: CONVENE_BRANDING });
    expect(await hostedUiContext({ participantId: 'nope' })).toEqual({
      frameAncestors: [],
      branding: CONVENE_BRANDING,
    });
  });
});

describe('lang on a join', () => {
  it('ends up in the join URL and the waiting URL; an unknown one is a 400 naming lang', async () => {
    const t = await seedTenant();
    const room = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
    const joined = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'a', displayName: 'A', lang: 'es' },
    });
    expect(joined.status).toBe(200);
    expect(new URL(joined.body.joinUrl).searchParams.get('lang')).toBe('es');
    const plain = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'b', displayName: 'B' },
    });
    expect(new URL(plain.body.joinUrl).searchParams.has('lang')).toBe(false);
    const bad = await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key: t.key,
      body: { externalUserId: 'c', displayName: 'C', lang: 'xx' },
    });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['lang']);

    const waitingRoom = (
      await suite.api('POST', '/api/v1/rooms', {
        key: t.key,
        body: { createdByExternalId: 'u', enableWaitingRoom: true },
      })
    ).body;
    const parked = await suite.api('POST', `/api/v1/rooms/${waitingRoom.id}/join`, {
      key: t.key,
      body: { externalUserId: 'd', displayName: 'D', lang: 'fr' },
    });
    expect(new URL(parked.body.admissionUrl).searchParams.get('lang')).toBe('fr');
  });
});

async function joinSomeone(key: string) {
  const room = (await suite.api('POST', '/api/v1/rooms', { key, body: { createdByExternalId: 'u' } })).body;
  return (
    await suite.api('POST', `/api/v1/rooms/${room.id}/join`, {
      key,
      body: { externalUserId: `p${Math.random()}`, displayName: 'P' },
    })
  ).body as { token: string };
}
