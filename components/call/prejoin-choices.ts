/**
 * Camera and microphone on or off, as a guest left them on the waiting page: the pre-join screen
 * that opens once they are admitted starts from them. Kept in sessionStorage (this tab only);
 * storage that throws (a blocked third-party frame) just means no carried choice.
 */
const KEY = 'convene.prejoin-choices';

export interface PrejoinChoices {
  audio: boolean;
  video: boolean;
}

export function savePrejoinChoices(choices: PrejoinChoices): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(choices));
  } catch {
    // No storage: the pre-join screen starts with both on.
  }
}

/** The saved choices, or null when none (or anything but two booleans) is stored. */
export function takePrejoinChoices(): PrejoinChoices | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (
      parsed &&
      typeof parsed === 'object' &&
      typeof (parsed as PrejoinChoices).audio === 'boolean' &&
      typeof (parsed as PrejoinChoices).video === 'boolean'
    )
      return { audio: (parsed as PrejoinChoices).audio, video: (parsed as PrejoinChoices).video };
  } catch {
    // Unreadable or not JSON: no carried choice.
  }
  return null;
}
