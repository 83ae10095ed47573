'use client';

import { forwardRef, useMemo } from 'react';
import { CarouselLayout, GridLayout, type TrackReferenceOrPlaceholder } from '@livekit/components-react';
import type { StageLayout } from '@/components/call/layout/stage-layout';
import type { StageFocus } from '@/components/call/layout/useStageFocus';
import { useTileGeneration } from '@/components/call/layout/tile-generation';
import { PhoneStage } from '@/components/call/layout/PhoneStage';
import { useIsPhone } from '@/components/call/layout/useIsPhone';

const sameTrack = (a?: TrackReferenceOrPlaceholder, b?: TrackReferenceOrPlaceholder) =>
  !!a && !!b && a.participant.identity === b.participant.identity && a.source === b.source;

/**
 * The call's stage in the chosen layout: LiveKit's grid, or the focused tile large with the
 * others in LiveKit's carousel below it (speaker) or beside it (sidebar); on a phone, speaker and
 * sidebar are the phone's own stage (PhoneStage: the focused person full, yourself as an inset,
 * swipe for the others). It sits between the top bar and the control bar, so no tool covers a
 * tile. `data-convene-view` says what is shown; `notice` goes over the stage (who is in the
 * spotlight, that you are sharing your screen).
 */
export const Stage = forwardRef<
  HTMLDivElement,
  {
    layout: StageLayout;
    focus: StageFocus;
    tracks: TrackReferenceOrPlaceholder[];
    Tile: React.ComponentType<{ trackRef?: TrackReferenceOrPlaceholder }>;
    notice?: React.ReactNode;
  }
>(function Stage({ layout, focus, tracks, Tile, notice }, ref) {
  const others = useMemo(
    () => (focus.focused ? tracks.filter((t) => !sameTrack(t, focus.focused)) : tracks),
    [tracks, focus.focused],
  );
  const gridGeneration = useTileGeneration(tracks);
  const stripGeneration = useTileGeneration(others);
  const phone = useIsPhone();
  return (
    <div
      ref={ref}
      className="convene-stage"
      data-convene-layout={layout}
      data-convene-view={focus.view}
      data-convene-focus={focus.reason}
      data-convene-phone={phone && focus.view !== 'grid' ? 'true' : undefined}
    >
      {phone && focus.view !== 'grid' ? (
        <>
          <PhoneStage tracks={tracks} focused={focus.focused} Tile={Tile} />
          {notice}
        </>
      ) : focus.view === 'grid' || !focus.focused ? (
        <div className="lk-grid-layout-wrapper">
          <GridLayout key={gridGeneration} tracks={tracks}>
            <Tile />
          </GridLayout>
          {notice}
        </div>
      ) : (
        <div className="convene-focus-stage">
          <div className="convene-stage-main">
            <Tile trackRef={focus.focused} />
            {notice}
          </div>
          {others.length > 0 && (
            <div className="convene-stage-strip">
              <CarouselLayout
                key={stripGeneration}
                tracks={others}
                orientation={focus.view === 'sidebar' ? 'vertical' : 'horizontal'}
              >
                <Tile />
              </CarouselLayout>
            </div>
          )}
        </div>
      )}
    </div>
  );
});
