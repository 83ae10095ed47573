import type { Language } from '@/lib/i18n/languages';

/** Each language's plural categories, made once (Intl.PluralRules knows them all). */
const rules = new Map<string, Intl.PluralRules>();

/**
 * A count with the noun in the form its language needs: `count(1, { one: 'day', other: 'days' })`
 * → "1 day". Forms are keyed by the CLDR category (one, few, many, other…); `other` is the
 * fallback. The number is written as the language writes it (1,000 / 1.000).
 */
export function count(
  n: number,
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
  lang: Language = 'en',
): string {
  let rule = rules.get(lang);
  if (!rule) rules.set(lang, (rule = new Intl.PluralRules(lang)));
  return `${n.toLocaleString(lang)} ${forms[rule.select(n)] ?? forms.other}`;
}
