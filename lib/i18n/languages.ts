/**
 * The languages of the hosted call UI and how one is chosen. Pure: used by the API's schemas
 * (`lang` on a join, a tenant's default language) and by the join and waiting pages.
 */
export const LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
/** The request header the proxy sets to a hosted page's language, for the root layout's <html lang>. */
export const LANGUAGE_HEADER = 'x-convene-lang';
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The first supported language of an Accept-Language header (`de-CH,de;q=0.9,en;q=0.8` → de), by quality. */
export function fromAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { base: tag.trim().toLowerCase().split('-')[0], quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return (ranked.find((r) => isLanguage(r.base))?.base as Language | undefined) ?? null;
}

/**
 * The language a page speaks: the join URL's `lang`, then the tenant's default language, then
 * the browser's (Accept-Language), then English. An unsupported `lang` on a URL is ignored
 * rather than shown as an error: the API refuses it when minting links, so only hand-edited
 * URLs carry one.
 */
export function chooseLanguage(opts: {
  lang?: string | null;
  tenantDefault?: string | null;
  acceptLanguage?: string | null;
}): Language {
  const fromUrl = opts.lang?.toLowerCase();
  if (isLanguage(fromUrl)) return fromUrl;
  if (isLanguage(opts.tenantDefault)) return opts.tenantDefault;
  return fromAcceptLanguage(opts.acceptLanguage) ?? 'en';
}
