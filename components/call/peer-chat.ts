import { CHAT_MAX_LENGTH } from '@/lib/domain/chat-limits';
import { LIVE_MESSAGE_MAX_BYTES } from '@/lib/live-topics';

/**
 * A peer's chat packet is untrusted input: anything but `{message: string}` within bounds reads as
 * an empty message (not shown), never a thrown error; each message gets an id of ours, so no packet
 * can replace another sender's message by reusing its id (LiveKit's edit path).
 */
export function decodePeerChat(payload: Uint8Array) {
  let message = '';
  if (payload.byteLength <= LIVE_MESSAGE_MAX_BYTES) {
    try {
      const body: unknown = JSON.parse(new TextDecoder().decode(payload));
      const text = (body as { message?: unknown } | null)?.message;
      if (typeof text === 'string') message = text.slice(0, CHAT_MAX_LENGTH);
    } catch {
      // not JSON: dropped below
    }
  }
  return { id: crypto.randomUUID(), timestamp: Date.now(), message };
}
