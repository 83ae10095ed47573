// zod's tree-shakable form: the hosted call UI's bundle reads this module.
import * as z from 'zod/mini';

/**
 * The media-layer participant attribute that carries a moderator's spotlight: JSON
 * `{identity, at}` — who everyone's stage focuses (a media identity, or null once cleared) and when
 * the server wrote it. Written only by the server (lib/domain/host-actions.ts) on the moderator's
 * own participant; the call honours it only from participants whose metadata says host or
 * moderator, and the latest one wins. No server imports: safe in the browser bundle.
 */
export const SPOTLIGHT_ATTRIBUTE = 'convene.spotlight';

export const spotlightAttribute = z.object({
  identity: z.nullable(z.string().check(z.minLength(1), z.maxLength(256))),
  at: z.iso.datetime(),
});
export type SpotlightAttribute = z.infer<typeof spotlightAttribute>;

/** The attribute's value, or null for anything absent or malformed (another participant's data is untrusted). */
export function readSpotlight(raw: string | undefined): SpotlightAttribute | null {
  if (!raw) return null;
  try {
    const parsed = spotlightAttribute.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
