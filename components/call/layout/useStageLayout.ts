'use client';

import { useCallback, useState } from 'react';
import { readStageLayout, saveStageLayout, type StageLayout } from '@/components/call/layout/stage-layout';

/** The layout this browser chose (grid until it chooses), remembered across calls and reloads. */
export function useStageLayout(): [StageLayout, (layout: StageLayout) => void] {
  const [layout, setLayout] = useState<StageLayout>(readStageLayout);
  const choose = useCallback((next: StageLayout) => {
    saveStageLayout(next);
    setLayout(next);
  }, []);
  return [layout, choose];
}
