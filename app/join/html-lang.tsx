'use client';

import { useLayoutEffect } from 'react';
import type { Language } from '@/lib/i18n/languages';

/**
 * The document's language is the page's (chosen on the server per request), not the root
 * layout's English: the root layout cannot see a page's query or tenant, so the hosted pages set
 * it on <html> as they render. The shell's own `lang` covers the page before this runs.
 */
export function HtmlLang({ lang }: { lang: Language }) {
  useLayoutEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return null;
}
