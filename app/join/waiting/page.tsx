import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { cache } from 'react';
import { WaitingRoom } from '@/components/call/WaitingRoom';
import { HostedShell } from '@/components/call/HostedShell';
import { hostedUiContext } from '@/lib/domain/embedding';
import { chooseLanguage } from '@/lib/i18n/languages';
import { messagesFor } from '@/lib/i18n/messages';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v ? v : null);

const pageContext = cache(async (participantId: string | null, lang: string | null) => {
  const context = await hostedUiContext({ participantId });
  const language = chooseLanguage({
    lang,
    tenantDefault: context.branding.defaultLanguage,
    acceptLanguage: (await headers()).get('accept-language'),
  });
  return { ...context, language };
});

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const params = await searchParams;
  const { branding, language } = await pageContext(one(params.participant), one(params.lang));
  return { title: `${messagesFor(language).titles.waiting} · ${branding.productName}`, referrer: 'no-referrer' };
}

export default async function WaitingPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const participantId = one(params.participant);
  const lang = one(params.lang);
  const { branding, language, frameAncestors } = await pageContext(participantId, lang);
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
