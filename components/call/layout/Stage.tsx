'use client';

import { forwardRef } from 'react';
import { CarouselLayout, GridLayout, type TrackReferenceOrPlaceholder } from '@livekit/components-react';
import type { StageLayout } from '@/components/call/layout/stage-layout';
import type { StageFocus } from '@/components/call/layout/useStageFocus';

const sameTrack = (a?: TrackReferenceOrPlaceholder, b?: TrackReferenceOrPlaceholder) =>
  !!a && !!b && a.participant.identity === b.participant.identity && a.source === b.source;

/**
 * The call's stage in the chosen layout: LiveKit's grid, or the focused tile large with the
 * others in LiveKit's carousel below it (speaker) or beside it (sidebar). It starts below the
 * meeting tools (padding from useToolsClearance), so no tool covers a tile. `data-convene-view`
 * says what is shown; `notice` goes over the large tile (who is in the spotlight).
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
  const others = focus.focused ? tracks.filter((t) => !sameTrack(t, focus.focused)) : tracks;
  return (
    <div
      ref={ref}
      className="convene-stage"
      data-convene-layout={layout}
      data-convene-view={focus.view}
      data-convene-focus={focus.reason}
    >
      {focus.view === 'grid' || !focus.focused ? (
        <div className="lk-grid-layout-wrapper">
          <GridLayout tracks={tracks}>
            <Tile />
          </GridLayout>
        </div>
      ) : (
        <div className="convene-focus-stage">
          <div className="convene-stage-main">
            <Tile trackRef={focus.focused} />
            {notice}
          </div>
          {others.length > 0 && (
            <div className="convene-stage-strip">
              <CarouselLayout tracks={others} orientation={focus.view === 'sidebar' ? 'vertical' : 'horizontal'}>
                <Tile />
              </CarouselLayout>
            </div>
          )}
        </div>
      )}
    </div>
  );
});
