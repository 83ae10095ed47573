/**
 * What a page shows of a tenant's branding, every field resolved, and Convene's own. No zod and no
 * server imports: the hosted call UI's bundle reads these (the schemas are in branding.schemas.ts).
 */
import type { Language } from '@/lib/i18n/languages';

/** What a page shows: every field resolved (logo, background image and language may stay unset). */
export interface ResolvedBranding {
  productName: string;
  logoUrl: string | null;
  accentColor: string;
  backgroundColor: string;
  backgroundImageUrl: string | null;
  defaultLanguage: Language | null;
  virtualBackgrounds: string[];
  reactionsEnabled: boolean;
  raiseHandEnabled: boolean;
  backgroundsEnabled: boolean;
  noiseSuppressionEnabled: boolean;
}

export const CONVENE_BRANDING: ResolvedBranding = {
  productName: 'Convene',
  logoUrl: null,
  accentColor: '#1d4ed8',
  backgroundColor: '#111111',
  backgroundImageUrl: null,
  defaultLanguage: null,
  virtualBackgrounds: [],
  reactionsEnabled: true,
  raiseHandEnabled: true,
  backgroundsEnabled: true,
  noiseSuppressionEnabled: true,
};
