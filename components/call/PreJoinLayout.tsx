'use client';

import { useT } from '@/components/call/useT';
import { BrandMark } from '@/components/call/HostedShell';
import { Badge } from '@/components/call/Badge';

/**
 * The pre-join screen around its form: the tenant's mark, the meeting's name, who joins, and
 * whether the meeting is encrypted. The join page and the console's branding preview both show
 * this one, so the preview is what participants see. `fill`: the whole window and the page's main
 * landmark (the join page); a preview is a part of its page.
 */
export function PreJoinLayout({
  roomName,
  name,
  e2ee = false,
  fill = true,
  children,
}: {
  roomName: string | null;
  name: string;
  e2ee?: boolean;
  fill?: boolean;
  children: React.ReactNode;
}) {
  const t = useT();
  const Root = fill ? 'main' : 'div';
  return (
    <Root
      className={`convene-prejoin flex flex-col items-center justify-center gap-4 p-4 text-white ${fill ? 'min-h-dvh' : ''}`}
      data-lk-theme="default"
    >
      <BrandMark />
      {/* Names are the integrator's and people's words: a word longer than the line breaks there. */}
      {roomName && (
        <h1 className="max-w-full text-center text-2xl font-semibold [overflow-wrap:break-word]">{roomName}</h1>
      )}
      <p data-testid="joining-as" className="max-w-full text-center text-slate-200 [overflow-wrap:break-word]">
        {t.joiningAs(name)}
      </p>
      {e2ee && <Badge>{t.e2eeBadge}</Badge>}
      {children}
    </Root>
  );
}
