import { en } from '@/lib/i18n/en';
import { de } from '@/lib/i18n/de';
import { es } from '@/lib/i18n/es';
import { fr } from '@/lib/i18n/fr';
import type { Language } from '@/lib/i18n/languages';
import { translated, type Messages, type Translation } from '@/lib/i18n/translate';

export type { Messages, Translation } from '@/lib/i18n/translate';

export const TRANSLATIONS: Record<Exclude<Language, 'en'>, Translation> = { de, es, fr };

const cache = new Map<Language, Messages>();

/** The texts in a language; anything a translation lacks falls back to English. */
export function messagesFor(lang: Language): Messages {
  if (lang === 'en') return en;
  let messages = cache.get(lang);
  if (!messages) cache.set(lang, (messages = translated(en, TRANSLATIONS[lang])));
  return messages;
}
