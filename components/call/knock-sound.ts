/**
 * The host's knock sound: a short knock (public/sounds/knock.wav, synthesised for Convene) when
 * someone starts waiting. On unless this browser turned it off (remembered in localStorage).
 */
const KEY = 'convene.knockSound';
const KNOCK_URL = '/sounds/knock.wav';
const listeners = new Set<() => void>();

export function knockSoundOn(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true; // storage blocked (embedded): the default
  }
}

export function setKnockSound(on: boolean) {
  try {
    if (on) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, 'off');
  } catch {
    // Storage blocked: the choice is not remembered.
  }
  for (const l of listeners) l();
}

export function subscribeKnockSound(listener: () => void) {
  listeners.add(listener);
  // Another tab of the same browser changed it.
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function playKnock() {
  if (!knockSoundOn()) return;
  const audio = new Audio(KNOCK_URL);
  audio.volume = 0.6;
  // Refused without a user gesture on the page first (autoplay rules): the toast still shows.
  void audio.play().catch(() => undefined);
}
