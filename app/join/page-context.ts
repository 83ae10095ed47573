import { headers } from 'next/headers';
import { cache } from 'react';
import { hostedUiContext } from '@/lib/domain/embedding';
import { chooseLanguage } from '@/lib/i18n/languages';

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;
export const one = (v: string | string[] | undefined) => (typeof v === 'string' && v ? v : null);

/**
 * What a hosted page (call or waiting page) shows: the tenant's branding, its frame-ancestors and
 * the page's language — found by the participant token or the participant id, once per request
 * (metadata and page share it).
 */
export const hostedPageContext = cache(
  async (by: 'token' | 'participantId', id: string | null, lang: string | null) => {
    const context = await hostedUiContext({ [by]: id });
    const language = chooseLanguage({
      lang,
      tenantDefault: context.branding.defaultLanguage,
      acceptLanguage: (await headers()).get('accept-language'),
    });
    return { ...context, language };
  },
);
