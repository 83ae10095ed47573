import { z } from 'zod';
import { LANGUAGES, isLanguage, type Language } from '@/lib/i18n/languages';
import { named } from '@/lib/domain/shared.schemas';
import { CONVENE_BRANDING, type ResolvedBranding } from '@/lib/domain/branding-defaults';

/**
 * The hosted call UI's branding: what a tenant (or its provider, as the default for its tenants)
 * may set, the rules a value must meet, and how the look a page shows is resolved. Pure (no
 * database): the API, the console's live preview and the call UI share it.
 *
 * Readability is refused, not adjusted: the UI puts white text on the accent colour (buttons) and
 * white and light-grey text (#cbd5e1) on the background, so an accent below 4.5:1 against white, or
 * a background below 4.5:1 against #cbd5e1, is a 400 naming the field and the ratio it reached.
 * Silently darkening a colour would show a brand colour the tenant never chose.
 */
const MIN_CONTRAST = 4.5;
/** The text colours the UI draws on the accent and on the background. */
export const TEXT_ON_ACCENT = '#ffffff';
export const MUTED_TEXT = '#cbd5e1';

const HEX = /^#[0-9a-fA-F]{6}$/;

function channel(hex: string, i: number): number {
  const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  return 0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2);
}

/** WCAG 2 contrast ratio of two #rrggbb colours, 1–21, rounded down to 2 decimals. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return Math.floor(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
}

const colour = (against: string, role: string) =>
  z
    .string()
    .regex(HEX, 'must be a colour as #rrggbb, e.g. #1d4ed8')
    .transform((v) => v.toLowerCase())
    .superRefine((v, ctx) => {
      const ratio = contrastRatio(v, against);
      if (ratio < MIN_CONTRAST)
        ctx.addIssue({
          code: 'custom',
          message: `too light for ${role}: contrast ${ratio}:1 against ${against}, needs at least ${MIN_CONTRAST}:1; choose a darker colour`,
        });
    });

/** https only; no quotes, brackets, backslashes or spaces, so it can sit in CSS url() and src safely. */
const httpsUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .superRefine((v, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(v);
    } catch {
      url = null;
    }
    if (!url || url.protocol !== 'https:' || !url.hostname)
      ctx.addIssue({ code: 'custom', message: 'must be an https:// URL' });
    else if (/["'()\\\s<>]/.test(v))
      ctx.addIssue({ code: 'custom', message: 'must not contain quotes, brackets, backslashes or spaces' });
  });

export const MAX_VIRTUAL_BACKGROUNDS = 10;

const featureSwitch = (feature: string) =>
  z.boolean().nullable().describe(`${feature} in the call UI; false hides it; null: the default (on).`);

/** The call UI's features a tenant (or its provider) can switch off; all on unless set false. */
export const FEATURE_SWITCHES = [
  'reactionsEnabled',
  'raiseHandEnabled',
  'backgroundsEnabled',
  'noiseSuppressionEnabled',
] as const;
export type FeatureSwitch = (typeof FEATURE_SWITCHES)[number];

export const brandingFields = {
  /** Shown beside the logo and in the page title, instead of "Convene". */
  productName: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(60, 'must be at most 60 characters')
    .nullable()
    .describe('1–60 characters; null clears.'),
  /** An image shown at most 40 px high and 160 px wide. */
  logoUrl: httpsUrl.nullable().describe('https URL, no quotes, brackets or spaces; null clears.'),
  /** Buttons and highlights; white text is drawn on it. */
  accentColor: colour(TEXT_ON_ACCENT, 'white text on it')
    .nullable()
    .describe('#rrggbb with at least 4.5:1 contrast against white; null clears.'),
  /** The page's ground; light text is drawn on it. */
  backgroundColor: colour(MUTED_TEXT, 'the light text on it')
    .nullable()
    .describe('#rrggbb with at least 4.5:1 contrast against #cbd5e1; null clears.'),
  /** Optional image over the background colour, under a dark veil so the text stays readable. */
  backgroundImageUrl: httpsUrl.nullable().describe('https URL, shown under a dark veil; null clears.'),
  /** The call UI's language when the join URL names none (before the browser's). */
  defaultLanguage: z.enum(LANGUAGES).nullable().describe('en, de, es or fr; null: the browser language.'),
  /**
   * The tenant's own virtual backgrounds, offered beside the built-in ones. The browser loads them
   * (cross-origin, so their host must send CORS headers) and composites them behind the person.
   */
  virtualBackgrounds: z
    .array(httpsUrl)
    .max(MAX_VIRTUAL_BACKGROUNDS, `must list at most ${MAX_VIRTUAL_BACKGROUNDS} images`)
    .nullable()
    .describe(`Up to ${MAX_VIRTUAL_BACKGROUNDS} https image URLs (served with CORS); null clears.`),
  /** Feature switches of the hosted call UI: false removes the control; null falls back (default on). */
  reactionsEnabled: featureSwitch('Emoji reactions'),
  raiseHandEnabled: featureSwitch('Raise hand'),
  backgroundsEnabled: featureSwitch('Background blur and virtual backgrounds'),
  noiseSuppressionEnabled: featureSwitch('Noise suppression'),
};

/** PATCH body: any subset; null clears a field (back to the provider's default, then Convene's). Unknown fields are refused. */
export const brandingInput = z.strictObject(brandingFields).partial();
export type BrandingInput = z.infer<typeof brandingInput>;

/** As sent back: the values as stored (null = not set). */
const brandingResponseFields = {
  productName: z.string().nullable().describe('Shown beside the logo and in the page title.'),
  logoUrl: z.string().nullable().describe('https URL of the logo (shown at most 40 px high, 160 px wide).'),
  accentColor: z.string().nullable().describe('#rrggbb; buttons and highlights, with white text on it.'),
  backgroundColor: z.string().nullable().describe('#rrggbb; the page ground, with light text on it.'),
  backgroundImageUrl: z
    .string()
    .nullable()
    .describe('https URL of an image over the background colour, under a dark veil.'),
  defaultLanguage: z
    .enum(LANGUAGES)
    .nullable()
    .describe('The call UI language when the join URL names none (before the browser’s).'),
  virtualBackgrounds: z
    .array(z.string())
    .nullable()
    .describe('https image URLs offered as virtual backgrounds beside the built-in ones.'),
  reactionsEnabled: z.boolean().nullable().describe('Emoji reactions in the call UI (null: on).'),
  raiseHandEnabled: z.boolean().nullable().describe('Raise hand in the call UI (null: on).'),
  backgroundsEnabled: z
    .boolean()
    .nullable()
    .describe('Background blur and virtual backgrounds in the call UI (null: on).'),
  noiseSuppressionEnabled: z.boolean().nullable().describe('Noise suppression in the call UI (null: on).'),
};

export const brandingResponse = named(
  'Branding',
  'Hosted call UI branding as set (null = not set: the provider’s default applies, then Convene’s).',
  z.object(brandingResponseFields),
);

const resolvedBrandingResponse = named(
  'ResolvedBranding',
  'The branding the hosted call UI shows: the tenant’s own, else its provider’s default, else Convene’s.',
  z.object({
    ...brandingResponseFields,
    productName: z.string(),
    accentColor: z.string(),
    backgroundColor: z.string(),
    virtualBackgrounds: z.array(z.string()),
    reactionsEnabled: z.boolean(),
    raiseHandEnabled: z.boolean(),
    backgroundsEnabled: z.boolean(),
    noiseSuppressionEnabled: z.boolean(),
  }),
);

export const tenantBrandingResponse = named(
  'TenantBranding',
  'A tenant’s own branding and the branding its hosted call UI shows (`effective`).',
  z.object({ ...brandingResponseFields, effective: resolvedBrandingResponse }),
);

export interface Branding {
  productName: string | null;
  logoUrl: string | null;
  accentColor: string | null;
  backgroundColor: string | null;
  backgroundImageUrl: string | null;
  defaultLanguage: Language | null;
  virtualBackgrounds: string[] | null;
  reactionsEnabled: boolean | null;
  raiseHandEnabled: boolean | null;
  backgroundsEnabled: boolean | null;
  noiseSuppressionEnabled: boolean | null;
}

export { CONVENE_BRANDING, type ResolvedBranding } from '@/lib/domain/branding-defaults';

const EMPTY_BRANDING: Branding = {
  productName: null,
  logoUrl: null,
  accentColor: null,
  backgroundColor: null,
  backgroundImageUrl: null,
  defaultLanguage: null,
  virtualBackgrounds: null,
  reactionsEnabled: null,
  raiseHandEnabled: null,
  backgroundsEnabled: null,
  noiseSuppressionEnabled: null,
};
const KEYS = Object.keys(EMPTY_BRANDING) as (keyof Branding)[];

/** A stored branding (JSON column) read defensively: each field that no longer passes the rules reads as unset. */
export function storedBranding(json: unknown): Branding {
  const out: Branding = { ...EMPTY_BRANDING };
  if (!json || typeof json !== 'object') return out;
  const raw = json as Record<string, unknown>;
  for (const key of KEYS) {
    const parsed = brandingFields[key].safeParse(raw[key] ?? null);
    if (parsed.success) (out as unknown as Record<string, unknown>)[key] = parsed.data;
  }
  return out;
}

/** A PATCH applied to a stored branding: omitted fields stay, null clears. */
export function mergeBranding(current: Branding, patch: BrandingInput): Branding {
  const next = { ...current };
  for (const key of KEYS) if (patch[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = patch[key];
  return next;
}

/** Field by field: the tenant's own, else its provider's default, else Convene's. */
export function resolveBranding(own: Branding | null, providerDefault: Branding | null): ResolvedBranding {
  const pick = <K extends keyof Branding>(key: K) => own?.[key] ?? providerDefault?.[key] ?? null;
  return {
    productName: pick('productName') ?? CONVENE_BRANDING.productName,
    logoUrl: pick('logoUrl'),
    accentColor: pick('accentColor') ?? CONVENE_BRANDING.accentColor,
    backgroundColor: pick('backgroundColor') ?? CONVENE_BRANDING.backgroundColor,
    backgroundImageUrl: pick('backgroundImageUrl'),
    defaultLanguage: isLanguage(pick('defaultLanguage')) ? (pick('defaultLanguage') as Language) : null,
    virtualBackgrounds: pick('virtualBackgrounds') ?? CONVENE_BRANDING.virtualBackgrounds,
    reactionsEnabled: pick('reactionsEnabled') ?? CONVENE_BRANDING.reactionsEnabled,
    raiseHandEnabled: pick('raiseHandEnabled') ?? CONVENE_BRANDING.raiseHandEnabled,
    backgroundsEnabled: pick('backgroundsEnabled') ?? CONVENE_BRANDING.backgroundsEnabled,
    noiseSuppressionEnabled: pick('noiseSuppressionEnabled') ?? CONVENE_BRANDING.noiseSuppressionEnabled,
  };
}
