/** The call UI's focus outline: shown for keyboard focus only, the same on every control. */
export const focusRing = 'focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300';
