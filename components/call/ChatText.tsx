import { chatPieces } from '@/components/call/chat-links';

/**
 * A message's text with its web addresses as links (chat-links.ts: http and https only), opened
 * in a new tab without handing it this page (noopener) or where it came from (noreferrer). Text
 * nodes and anchors only: nothing in a message is ever rendered as HTML.
 */
export function ChatText({ text }: { text: string }) {
  return (
    <>
      {/* The pieces of one message never reorder: their index is their key. */}
      {chatPieces(text).map((piece, i) =>
        'href' in piece ? (
          <a
            key={i}
            href={piece.href}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all text-sky-300 underline hover:text-sky-200"
          >
            {piece.text}
          </a>
        ) : (
          <span key={i}>{piece.text}</span>
        ),
      )}
    </>
  );
}
