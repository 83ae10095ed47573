import type { Metadata } from 'next';
import { WaitingRoom } from '@/components/call/WaitingRoom';
import { HostedShell } from '@/components/call/HostedShell';
import { messagesFor } from '@/lib/i18n/messages';
import { hostedPageContext, one, type SearchParams } from '@/app/join/page-context';

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const params = await searchParams;
  const { branding, language } = await hostedPageContext('participantId', one(params.participant), one(params.lang));
  return {
    title: `${messagesFor(language).titles.waiting} · ${branding.productName}`,
    referrer: 'no-referrer',
    icons: branding.logoUrl ? { icon: branding.logoUrl } : undefined,
  };
}

export default async function WaitingPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const participantId = one(params.participant);
  const lang = one(params.lang);
  const { branding, language, frameAncestors } = await hostedPageContext('participantId', participantId, lang);
  return (
    <HostedShell branding={branding} lang={language}>
      <WaitingRoom
        roomId={one(params.room)}
        participantId={participantId}
        lang={lang ? language : null}
        embedOrigins={frameAncestors}
      />
    </HostedShell>
  );
}
