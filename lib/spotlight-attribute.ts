/**
 * The media-layer participant attribute that carries a moderator's spotlight: JSON
 * `{identity, at}` — who everyone's stage focuses (a media identity, or null once cleared) and when
 * the server wrote it. Written only by the server (lib/domain/host-actions.ts) on the moderator's
 * own participant; the call honours it only from participants whose metadata says host or
 * moderator, and the latest one wins. No imports: the call reads it as it joins, and two flat
 * fields need no validation library in the page.
 */
export const SPOTLIGHT_ATTRIBUTE = 'convene.spotlight';

export interface SpotlightAttribute {
  identity: string | null;
  /** When the server wrote it: an ISO 8601 UTC time, as Date.toISOString() writes it. */
  at: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** The attribute's value, or null for anything absent or malformed (another participant's data is untrusted). */
export function readSpotlight(raw: string | undefined): SpotlightAttribute | null {
  if (!raw || raw.length > 1024) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { identity, at } = value as Record<string, unknown>;
  const validIdentity =
    identity === null || (typeof identity === 'string' && identity.length >= 1 && identity.length <= 256);
  if (!validIdentity || typeof at !== 'string' || !ISO_UTC.test(at) || Number.isNaN(Date.parse(at))) return null;
  return { identity: identity as string | null, at };
}
