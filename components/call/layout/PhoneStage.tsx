'use client';

import { useEffect, useRef, useState } from 'react';
import type { TrackReferenceOrPlaceholder } from '@livekit/components-react';
import { Track } from 'livekit-client';
import { useT } from '@/components/call/useT';

const sameTrack = (a?: TrackReferenceOrPlaceholder, b?: TrackReferenceOrPlaceholder) =>
  !!a && !!b && a.participant.identity === b.participant.identity && a.source === b.source;
const keyOf = (t: TrackReferenceOrPlaceholder) => `${t.participant.identity}:${t.source}`;

/** After a person swipes, the stage follows the speaker again only after this long. */
const HANDS_OFF_MS = 8000;

/**
 * The stage on a phone, as Daily's mobile call: one other person fills it — whoever is focused
 * (the spotlight, a pin, a shared screen, else the active speaker) — with your own camera as a
 * small inset in the corner. Swipe sideways for the others (one a page, in a stable order; dots
 * below name them and go there too). While nobody swipes, the stage follows the focus.
 */
export function PhoneStage({
  tracks,
  focused,
  Tile,
}: {
  tracks: TrackReferenceOrPlaceholder[];
  focused?: TrackReferenceOrPlaceholder;
  Tile: React.ComponentType<{ trackRef?: TrackReferenceOrPlaceholder }>;
}) {
  const t = useT();
  const self = tracks.find((tr) => tr.participant.isLocal && tr.source === Track.Source.Camera);
  // Shared screens first, then cameras, each in the order LiveKit lists them.
  const others = tracks.filter((tr) => !tr.participant.isLocal);
  const pages = [
    ...others.filter((tr) => tr.source === Track.Source.ScreenShare),
    ...others.filter((tr) => tr.source !== Track.Source.ScreenShare),
  ];
  const list = useRef<HTMLDivElement>(null);
  const touched = useRef(0);
  const [shown, setShown] = useState(0);
  const target = Math.max(
    0,
    pages.findIndex((p) => sameTrack(p, focused)),
  );

  const goTo = (index: number, smooth = true) => {
    const el = list.current;
    if (!el) return;
    el.scrollTo({ left: index * el.clientWidth, behavior: smooth ? 'smooth' : 'auto' });
    setShown(index);
  };

  // Follow the focus unless the person swiped a moment ago.
  const targetKey = pages[target] ? keyOf(pages[target]) : '';
  useEffect(() => {
    if (Date.now() - touched.current < HANDS_OFF_MS) return;
    goTo(target, false);
  }, [targetKey, pages.length]);

  if (pages.length === 0) return <div className="convene-phone-stage">{self && <Tile trackRef={self} />}</div>;
  return (
    <div className="convene-phone-stage" data-testid="phone-stage">
      <div
        ref={list}
        className="convene-phone-pages"
        onPointerDown={() => {
          touched.current = Date.now();
        }}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setShown(Math.round(el.scrollLeft / el.clientWidth));
        }}
      >
        {pages.map((p, i) => (
          <div key={keyOf(p)} className="convene-phone-page" data-shown={i === shown}>
            <Tile trackRef={p} />
          </div>
        ))}
      </div>
      {self && (
        <div className="convene-self-inset" data-testid="self-inset">
          <Tile trackRef={self} />
        </div>
      )}
      {pages.length > 1 && (
        <div className="convene-phone-dots" role="group" aria-label={t.stage.pages}>
          {pages.map((p, i) => (
            <button
              key={keyOf(p)}
              type="button"
              aria-label={t.stage.showPerson(p.participant.name || p.participant.identity)}
              aria-current={i === shown}
              onClick={() => {
                touched.current = Date.now();
                goTo(i);
              }}
            />
          ))}
        </div>
      )}
    </div>
  );
}
