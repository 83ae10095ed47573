import { describe, expect, it } from 'vitest';
import { en } from '@/lib/i18n/en';
import { TRANSLATIONS, messagesFor } from '@/lib/i18n/messages';
import { chooseLanguage, fromAcceptLanguage, LANGUAGES } from '@/lib/i18n/languages';

/** Every path to a text in a dictionary (functions are texts too). */
function paths(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => paths(v, prefix ? `${prefix}.${k}` : k));
}

describe('the call UI languages', () => {
  for (const [lang, dict] of Object.entries(TRANSLATIONS)) {
    it(`${lang} translates every text of en.ts, and nothing else`, () => {
      expect(paths(dict).sort()).toEqual(paths(en).sort());
      const m = messagesFor(lang as 'de');
      // Functions keep their arguments and are really translated (not English).
      expect(m.joiningAs('Ada')).toContain('Ada');
      expect(m.joiningAs('Ada')).not.toBe(en.joiningAs('Ada'));
      expect(m.errors.expiredToken.title).not.toBe(en.errors.expiredToken.title);
      for (const p of paths(en)) {
        const value = p.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], m);
        expect(typeof value, p).toBe(
          typeof p.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], en),
        );
      }
    });
  }

  it('a missing text falls back to English', () => {
    expect(messagesFor('en')).toBe(en);
    expect(messagesFor('de').people.roles.HOST).toBe('Gastgeber:in');
  });

  it('picks the lang parameter, then the tenant default, then the browser, then English', () => {
    expect(LANGUAGES).toEqual(['en', 'de', 'es', 'fr']);
    expect(chooseLanguage({ lang: 'fr', tenantDefault: 'de', acceptLanguage: 'es' })).toBe('fr');
    expect(chooseLanguage({ lang: 'FR' })).toBe('fr');
    expect(chooseLanguage({ lang: 'xx', tenantDefault: 'de', acceptLanguage: 'es' })).toBe('de');
    expect(chooseLanguage({ tenantDefault: null, acceptLanguage: 'es-MX,es;q=0.9,en;q=0.8' })).toBe('es');
    expect(chooseLanguage({ acceptLanguage: 'ja,zh;q=0.9' })).toBe('en');
    expect(chooseLanguage({})).toBe('en');
    expect(fromAcceptLanguage('en;q=0.5,de-CH;q=0.9')).toBe('de');
    expect(fromAcceptLanguage('fr;q=0,es')).toBe('es');
    expect(fromAcceptLanguage('*')).toBeNull();
  });
});
