import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { cache } from 'react';
import { JoinClient } from '@/components/call/JoinClient';
import { HostedShell } from '@/components/call/HostedShell';
import { hostedUiContext } from '@/lib/domain/embedding';
import { chooseLanguage } from '@/lib/i18n/languages';
import { messagesFor } from '@/lib/i18n/messages';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v ? v : null);

/** The tenant's branding, frame-ancestors and the page's language: looked up once per request. */
const pageContext = cache(async (token: string | null, lang: string | null) => {
  const context = await hostedUiContext({ token });
  const language = chooseLanguage({
    lang,
    tenantDefault: context.branding.defaultLanguage,
    acceptLanguage: (await headers()).get('accept-language'),
  });
  return { ...context, language };
});

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const params = await searchParams;
  const { branding, language } = await pageContext(one(params.token), one(params.lang));
  return { title: `${messagesFor(language).titles.join} · ${branding.productName}`, referrer: 'no-referrer' };
}

// The hosted call UI: token and media URL from the query; an E2EE key, if any, from the
// fragment (read in the browser only). Branding and language are decided here, on the server.
export default async function JoinPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = one(params.token);
  const { branding, language, frameAncestors } = await pageContext(token, one(params.lang));
  return (
    <HostedShell branding={branding} lang={language}>
      <JoinClient token={token} serverUrl={one(params.url)} embedOrigins={frameAncestors} />
    </HostedShell>
  );
}
