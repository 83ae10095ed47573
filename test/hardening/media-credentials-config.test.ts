import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';

// A production process never runs with missing or published media credentials (issue: with
// LIVEKIT_API_KEY/SECRET unset, production signed tokens and verified webhooks with devkey/secret).
const base = {
  DATABASE_URL: 'postgresql://u@127.0.0.1:5432/db',
  CONVENE_MASTER_KEY: 'a'.repeat(64),
};
const strong = { LIVEKIT_API_KEY: 'APIx7Kq2mPz9', LIVEKIT_API_SECRET: 'Zq8xW3nT5vB7yL2kP9mR4sD6fG1hJ0aC' };

describe('media credentials in production', () => {
  it('refuses to start without LIVEKIT_API_KEY, naming it', () => {
    expect(() =>
      parseConfig({ ...base, NODE_ENV: 'production', LIVEKIT_API_SECRET: strong.LIVEKIT_API_SECRET }),
    ).toThrow(/LIVEKIT_API_KEY: required in production/);
  });
  it('refuses to start without LIVEKIT_API_SECRET, naming it', () => {
    expect(() => parseConfig({ ...base, NODE_ENV: 'production', LIVEKIT_API_KEY: strong.LIVEKIT_API_KEY })).toThrow(
      /LIVEKIT_API_SECRET: required in production/,
    );
  });
  it('refuses with neither (the old devkey/secret default)', () => {
    expect(() => parseConfig({ ...base, NODE_ENV: 'production' })).toThrow(/LIVEKIT_API_KEY[\s\S]*LIVEKIT_API_SECRET/);
  });
  it.each([
    ['devkey', 'secret'],
    ['devkey', strong.LIVEKIT_API_SECRET],
    [strong.LIVEKIT_API_KEY, 'secret'],
    ['APIdevkey', strong.LIVEKIT_API_SECRET],
  ])('refuses the published pair %s / %s', (key, secret) => {
    expect(() =>
      parseConfig({ ...base, NODE_ENV: 'production', LIVEKIT_API_KEY: key, LIVEKIT_API_SECRET: secret }),
    ).toThrow(/LIVEKIT_API_(KEY|SECRET): .*(published|development)/);
  });
  it('refuses a secret shorter than 32 characters', () => {
    expect(() =>
      parseConfig({
        ...base,
        NODE_ENV: 'production',
        LIVEKIT_API_KEY: strong.LIVEKIT_API_KEY,
        LIVEKIT_API_SECRET: 'short-but-not-published',
      }),
    ).toThrow(/LIVEKIT_API_SECRET: must be at least 32/);
  });
  it("starts with the deployment's own pair", () => {
    const c = parseConfig({ ...base, NODE_ENV: 'production', ...strong });
    expect(c.LIVEKIT_API_KEY).toBe(strong.LIVEKIT_API_KEY);
    expect(c.LIVEKIT_API_SECRET).toBe(strong.LIVEKIT_API_SECRET);
  });
  it('development and tests keep the livekit-server --dev default', () => {
    const c = parseConfig({ ...base, NODE_ENV: 'development' });
    expect([c.LIVEKIT_API_KEY, c.LIVEKIT_API_SECRET]).toEqual(['devkey', 'secret']);
  });
});

describe('TRUSTED_PROXIES', () => {
  it('is empty by default: no forwarded header is trusted', () => {
    expect(parseConfig({ ...base }).TRUSTED_PROXIES).toEqual([]);
  });
  it('accepts addresses and CIDR ranges', () => {
    expect(parseConfig({ ...base, TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8' }).TRUSTED_PROXIES).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
  });
  it('refuses anything else, naming the variable', () => {
    expect(() => parseConfig({ ...base, TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseConfig({ ...base, TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXIES/);
  });
});
