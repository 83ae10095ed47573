'use client';

import { createContext, useMemo } from 'react';
import { en } from '@/lib/i18n/en';
import { messagesFor, type Messages } from '@/lib/i18n/messages';
import type { Language } from '@/lib/i18n/languages';

/** The texts of the language a hosted page speaks (chosen on the server: lib/i18n/languages.ts). */
export const I18nContext = createContext<Messages>(en);

export function I18nProvider({ lang, children }: { lang: Language; children: React.ReactNode }) {
  const messages = useMemo(() => messagesFor(lang), [lang]);
  return <I18nContext.Provider value={messages}>{children}</I18nContext.Provider>;
}
