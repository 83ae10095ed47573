/**
 * The media-layer participant attribute that holds a raised hand (the ISO time it went up; absent
 * or empty when down). Written by the server (lib/domain/hands.ts), read by the call UI: no imports,
 * safe in the browser bundle.
 */
export const HAND_ATTRIBUTE = 'convene.hand';
