'use client';

import { createContext, useContext } from 'react';
import { I18nProvider } from '@/components/call/I18nProvider';
import { CONVENE_BRANDING, type ResolvedBranding } from '@/lib/domain/branding-defaults';
import type { Language } from '@/lib/i18n/languages';

const BrandingContext = createContext<ResolvedBranding>(CONVENE_BRANDING);

/** The branding of the page's tenant (Convene's outside a HostedShell). */
export function useBranding(): ResolvedBranding {
  return useContext(BrandingContext);
}

/** The ground of every hosted screen: the tenant's background colour, and its image under a dark veil so text stays readable. */
export function brandStyle(b: ResolvedBranding): React.CSSProperties {
  return {
    '--convene-accent': b.accentColor,
    '--convene-bg': b.backgroundColor,
    backgroundColor: b.backgroundColor,
    // The URL passed the branding rules (https, no quotes, brackets or spaces), so url("…") cannot be broken out of.
    ...(b.backgroundImageUrl
      ? {
          backgroundImage: `linear-gradient(rgba(0,0,0,.65), rgba(0,0,0,.65)), url("${b.backgroundImageUrl}")`,
          backgroundSize: 'cover',
          backgroundPosition: 'center',
        }
      : {}),
  } as React.CSSProperties;
}

/**
 * Every hosted page (/join, /join/waiting) sits in this shell: its language (texts and the `lang`
 * attribute) and its tenant's branding (colours as CSS variables that globals.css hands to
 * LiveKit's theme, ground, logo), both decided on the server. Words never break inside: controls
 * are sized for their longest word in every language, and only what people type (names, messages)
 * may break where a word is longer than its line (overflow-wrap: break-word, where it is shown).
 */
export function HostedShell({
  branding,
  lang,
  fill = true,
  testId = 'hosted-shell',
  children,
}: {
  branding: ResolvedBranding;
  lang: Language;
  /** The whole window (a hosted page); not in the console's preview of one. */
  fill?: boolean;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <BrandingContext.Provider value={branding}>
      <I18nProvider lang={lang}>
        <div
          lang={lang}
          className={`convene-branded text-white ${fill ? 'min-h-dvh' : ''}`}
          style={brandStyle(branding)}
          data-testid={testId}
        >
          {children}
        </div>
      </I18nProvider>
    </BrandingContext.Provider>
  );
}

/** The tenant's logo and product name; nothing for Convene's own look (no logo, default name). */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  const b = useBranding();
  if (!b.logoUrl && b.productName === CONVENE_BRANDING.productName) return null;
  return (
    <div
      className={`flex max-w-full items-center gap-2 ${compact ? 'rounded bg-black/60 px-2 py-1' : ''}`}
      data-testid="brand-mark"
    >
      {b.logoUrl && (
        // eslint-disable-next-line @next/next/no-img-element -- an arbitrary https host: next/image would need it configured
        <img
          src={b.logoUrl}
          alt=""
          referrerPolicy="no-referrer"
          className={compact ? 'max-h-6 max-w-24 object-contain' : 'max-h-10 max-w-40 object-contain'}
        />
      )}
      <span
        className={`min-w-0 [overflow-wrap:break-word] ${compact ? 'text-sm font-semibold' : 'text-lg font-semibold'}`}
      >
        {b.productName}
      </span>
    </div>
  );
}
