'use client';

import { use } from 'react';
import { I18nContext } from '@/components/call/i18n-context';
import { en } from '@/lib/i18n/en';
import type { Language } from '@/lib/i18n/languages';
import { translated, type Messages, type Translation } from '@/lib/i18n/translate';

/**
 * Each translation is a chunk of its own, loaded only by a page that speaks it: a browser loads
 * English (the base every translation falls back to) and at most one more dictionary, not all
 * four (13.4 KB less on the wire, measured by e2e/join-weight.spec.ts).
 */
const TRANSLATION_LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Translation>> = {
  de: () => import('@/lib/i18n/de').then((m) => m.de),
  es: () => import('@/lib/i18n/es').then((m) => m.es),
  fr: () => import('@/lib/i18n/fr').then((m) => m.fr),
};
const loaded = new Map<Language, Promise<Messages>>();

function textsOf(lang: Exclude<Language, 'en'>): Promise<Messages> {
  let texts = loaded.get(lang);
  if (!texts) loaded.set(lang, (texts = TRANSLATION_LOADERS[lang]().then((t) => translated(en, t))));
  return texts;
}

/**
 * The page's texts. Another language than English suspends until its dictionary is loaded: on the
 * server before the page is sent, in the browser while the server's HTML stays on screen.
 */
export function I18nProvider({ lang, children }: { lang: Language; children: React.ReactNode }) {
  const messages = lang === 'en' ? en : use(textsOf(lang));
  return <I18nContext.Provider value={messages}>{children}</I18nContext.Provider>;
}
