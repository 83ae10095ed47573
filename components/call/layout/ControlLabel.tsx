/**
 * A word on a control: always its accessible name, shown under the icon from 761 px (where
 * LiveKit's own bar also switches to icons only), so the bar stays one row on a phone; in the
 * "More" menu the words show again beside the icons (app/globals.css).
 */
export function ControlLabel({ children }: { children: string }) {
  return <span className="convene-label max-[760px]:sr-only">{children}</span>;
}
