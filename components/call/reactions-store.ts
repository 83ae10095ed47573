/**
 * The reactions shown right now: by sender identity for the tiles, and as a list for the large
 * reactions floating up the stage (FloatingReactions); fed by CallExtraControls, read with
 * useSyncExternalStore. A reaction shows for SHOW_MS; a sender over MAX_PER_WINDOW in WINDOW_MS
 * is ignored, so a peer flooding the topic cannot flood the screen.
 */
const SHOW_MS = 4000;
const WINDOW_MS = 5000;
const MAX_PER_WINDOW = 5;

const shown = new Map<string, { emoji: string; id: number }>();
/** Every reaction still floating, oldest first (a new array on each change: a snapshot). */
export interface FloatingReaction {
  id: number;
  identity: string;
  emoji: string;
}
let floating: readonly FloatingReaction[] = [];
const recent = new Map<string, number[]>();
const listeners = new Set<() => void>();
let nextId = 0;

const notify = () => {
  for (const l of listeners) l();
};

/** Records a reaction from `identity`; false when it was over that sender's budget. */
export function addReaction(identity: string, emoji: string, now = Date.now()): boolean {
  const times = (recent.get(identity) ?? []).filter((t) => now - t < WINDOW_MS);
  if (times.length >= MAX_PER_WINDOW) return false;
  recent.set(identity, [...times, now]);
  const id = ++nextId;
  shown.set(identity, { emoji, id });
  floating = [...floating, { id, identity, emoji }];
  notify();
  setTimeout(() => {
    floating = floating.filter((f) => f.id !== id);
    if (shown.get(identity)?.id === id) shown.delete(identity); // else a newer one replaced it
    notify();
  }, SHOW_MS);
  return true;
}

export function subscribeReactions(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const reactionOf = (identity: string) => shown.get(identity)?.emoji ?? null;

export const floatingReactions = () => floating;
