import type { Metadata } from 'next';
import { JoinClient } from '@/components/call/JoinClient';
import { HostedShell } from '@/components/call/HostedShell';
import { messagesFor } from '@/lib/i18n/messages';
import { hostedPageContext, one, type SearchParams } from '@/app/join/page-context';

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const params = await searchParams;
  const { branding, language } = await hostedPageContext('token', one(params.token), one(params.lang));
  return {
    title: `${messagesFor(language).titles.join} · ${branding.productName}`,
    referrer: 'no-referrer',
    icons: branding.logoUrl ? { icon: branding.logoUrl } : undefined,
  };
}

// The hosted call UI: token and media URL from the query; an E2EE key, if any, from the
// fragment (read in the browser only). Branding and language are decided here, on the server.
export default async function JoinPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = one(params.token);
  const { branding, language, frameAncestors } = await hostedPageContext('token', token, one(params.lang));
  return (
    <HostedShell branding={branding} lang={language}>
      <JoinClient token={token} serverUrl={one(params.url)} embedOrigins={frameAncestors} />
    </HostedShell>
  );
}
