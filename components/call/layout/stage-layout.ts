/** The stage's layouts, as the layout menu offers them and this browser remembers its choice. */
export const STAGE_LAYOUTS = ['grid', 'speaker', 'sidebar'] as const;
export type StageLayout = (typeof STAGE_LAYOUTS)[number];

/** localStorage key (components/call/storage-fallback.ts stands in where storage is blocked). */
export const LAYOUT_STORAGE_KEY = 'convene.layout';

/**
 * This browser's choice; until it chooses, the grid — on a phone the speaker view (PhoneStage:
 * the active speaker fills the screen, yourself as an inset), as Daily's mobile call opens.
 */
export function readStageLayout(): StageLayout {
  const fallback: StageLayout = window.matchMedia?.('(max-width: 639px)').matches ? 'speaker' : 'grid';
  try {
    const saved = window.localStorage.getItem(LAYOUT_STORAGE_KEY);
    return STAGE_LAYOUTS.find((l) => l === saved) ?? fallback;
  } catch {
    return fallback;
  }
}

export function saveStageLayout(layout: StageLayout) {
  try {
    window.localStorage.setItem(LAYOUT_STORAGE_KEY, layout);
  } catch {
    // Storage full or blocked: the choice lasts for this page only.
  }
}

/** Roles whose spotlight the call honours (as the participant metadata names them). */
export const MODERATOR_ROLES: readonly string[] = ['HOST', 'MODERATOR'];
