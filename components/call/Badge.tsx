/** A small coloured label beside the meeting tools (encrypted, recording). */
export function Badge({ children, tone = 'green' }: { children: React.ReactNode; tone?: 'green' | 'red' }) {
  const colours = tone === 'red' ? 'bg-red-700 text-white' : 'bg-emerald-700 text-white';
  return <span className={`whitespace-nowrap rounded px-2 py-1 text-sm font-medium ${colours}`}>{children}</span>;
}
