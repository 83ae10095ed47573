/**
 * The reactions shown on tiles right now, by sender identity: fed by ReactionsListener, read by
 * each tile (useSyncExternalStore). A sender's reaction shows for SHOW_MS; a sender over
 * MAX_PER_WINDOW in WINDOW_MS is ignored, so a peer flooding the topic cannot flood the screen.
 */
const SHOW_MS = 4000;
const WINDOW_MS = 5000;
const MAX_PER_WINDOW = 5;

const shown = new Map<string, { emoji: string; id: number }>();
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
  notify();
  setTimeout(() => {
    if (shown.get(identity)?.id !== id) return; // a newer one replaced it
    shown.delete(identity);
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
