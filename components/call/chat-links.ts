/**
 * A chat message as pieces of text and links. Only http and https addresses become links (no
 * javascript:, data: or anything else), found where they start with http:// or https://; a
 * sentence's closing punctuation after an address stays text. Pure: test/ui/chat-links.test.ts.
 */
export type ChatPiece = { text: string } | { href: string; text: string };

const ADDRESS = /https?:\/\/[^\s<>"']+/gi;
/** Trailing characters that end a sentence or a bracket rather than belong to the address. */
const TRAILING = /[.,;:!?)\]}'"»”’]+$/;

export function chatPieces(message: string): ChatPiece[] {
  const pieces: ChatPiece[] = [];
  let last = 0;
  for (const match of message.matchAll(ADDRESS)) {
    let raw = match[0];
    const trail = TRAILING.exec(raw)?.[0] ?? '';
    // A closing bracket stays when the address opened one itself (Wikipedia-style paths).
    if (trail && !(trail === ')' && raw.includes('('))) raw = raw.slice(0, raw.length - trail.length);
    const start = match.index ?? 0;
    let href: string | null = null;
    try {
      const url = new URL(raw);
      if (url.protocol === 'http:' || url.protocol === 'https:') href = url.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > last) pieces.push({ text: message.slice(last, start) });
    pieces.push({ href, text: raw });
    last = start + raw.length;
  }
  if (last < message.length) pieces.push({ text: message.slice(last) });
  return pieces;
}
