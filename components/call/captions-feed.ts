import { CAPTION_MAX_CHARS } from '@/components/call/engagement-state';

/**
 * What feeds the captions overlay, as untrusted input: a transcription is believed only while the
 * room's captions run, and only from the captions agent the server named (GET /api/v1/me/captions,
 * the `convene.captions` live update) or from the server itself (no sender identity). The media
 * layer stamps every relayed packet with its sender's identity, so a participant cannot pass as
 * either.
 */
export function believeCaptionFrom(sender: string | undefined, agentIdentity: string | null): boolean {
  return agentIdentity !== null && (!sender || sender === agentIdentity);
}

/** The last CAPTION_MAX_CHARS characters, whitespace kept (the next delta may continue a word). */
function lastChars(text: string) {
  if (text.length <= CAPTION_MAX_CHARS) return text;
  const tail = text.slice(-CAPTION_MAX_CHARS);
  const first = tail.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? tail.slice(1) : tail;
}

/** How often a growing caption is redrawn at most while its stream arrives (ms). */
export const CAPTION_REDRAW_MS = 100;

/**
 * Reads one transcription text stream to its end, keeping only its latest CAPTION_MAX_CHARS
 * characters: `onText` sees the text so far at most every CAPTION_REDRAW_MS (and once more at the
 * end); returns the final text. A stream that fails keeps what arrived.
 */
export async function readCaptionStream(
  deltas: AsyncIterable<string>,
  onText: (text: string) => void,
  { now = Date.now }: { now?: () => number } = {},
): Promise<string> {
  let text = '';
  let shownAt = Number.NEGATIVE_INFINITY;
  try {
    for await (const delta of deltas) {
      text = lastChars(text + lastChars(delta));
      if (now() - shownAt >= CAPTION_REDRAW_MS) {
        shownAt = now();
        onText(text);
      }
    }
  } catch {
    // Cut short (or over the room's decompressed-size cap): what arrived stands.
  }
  return text;
}
