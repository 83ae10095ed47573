/**
 * Embedded in another site's page, browsers that block third-party storage throw on any access
 * to localStorage or sessionStorage — even `typeof localStorage`, which LiveKit's components
 * evaluate (saving device choices) outside their own try, crashing the call view. Where that
 * happens, an in-memory Storage stands in for the page's life; elsewhere nothing changes.
 */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(String(key)) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(String(key)),
    setItem: (key, value) => void items.set(String(key), String(value)),
  };
}

export function ensureStorage(): void {
  if (typeof window === 'undefined') return;
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      void window[name].length;
    } catch {
      try {
        Object.defineProperty(window, name, { configurable: true, value: memoryStorage() });
      } catch {
        // Not replaceable here: LiveKit's own guards apply.
      }
    }
  }
}
