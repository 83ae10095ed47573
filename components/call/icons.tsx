/**
 * The call's own icons: a small inline SVG set shipped with the page (no icon library, no font, no
 * emoji: a machine without an emoji font would show empty boxes). Strokes in currentColor on a
 * 20-unit grid; each is decorative (aria-hidden): the control beside it carries the name.
 * LiveKit's own icons (microphone, camera, screen, leave) come with its TrackToggle.
 */
const PATHS = {
  hand: 'M7 10V4.5a1.25 1.25 0 0 1 2.5 0V9m0-5.5V3a1.25 1.25 0 0 1 2.5 0v6m0-4.5a1.25 1.25 0 0 1 2.5 0V10m0-3a1.25 1.25 0 0 1 2.5 0v5.5c0 3-2.2 5.5-5.5 5.5h-.6a5 5 0 0 1-4-2l-2.6-3.6a1.3 1.3 0 0 1 2-1.6L7 12',
  smile: 'M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16ZM6.8 12a4 4 0 0 0 6.4 0M7.5 8h.01M12.5 8h.01',
  people:
    'M7.5 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM2 17v-1a4 4 0 0 1 4-4h3a4 4 0 0 1 4 4v1M13 3.2a3 3 0 0 1 0 5.6M15.5 12a4 4 0 0 1 2.5 3.7V17',
  chat: 'M3 4.5A1.5 1.5 0 0 1 4.5 3h11A1.5 1.5 0 0 1 17 4.5v8a1.5 1.5 0 0 1-1.5 1.5H8l-4 3v-3.2A1.5 1.5 0 0 1 3 12.5v-8Z',
  poll: 'M4 16V10M10 16V4M16 16v-8M2.5 17.5h15',
  question: 'M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16ZM7.7 7.6a2.4 2.4 0 0 1 4.6.9c0 1.6-2.3 2.1-2.3 3.4M10 14.5h.01',
  shield: 'M10 2.5 3.5 5v4.6c0 3.8 2.7 6.6 6.5 7.9 3.8-1.3 6.5-4.1 6.5-7.9V5L10 2.5ZM7.3 10l2 2 3.6-3.8',
  gear: 'M10 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM16.2 12a1.4 1.4 0 0 0 .3 1.5l.1.1a1.7 1.7 0 1 1-2.4 2.4l-.1-.1a1.4 1.4 0 0 0-2.4 1v.1a1.7 1.7 0 1 1-3.4 0V17a1.4 1.4 0 0 0-2.4-1l-.1.1a1.7 1.7 0 1 1-2.4-2.4l.1-.1A1.4 1.4 0 0 0 2.6 11h-.1a1.7 1.7 0 1 1 0-3.4h.1A1.4 1.4 0 0 0 3.6 5.2l-.1-.1A1.7 1.7 0 1 1 5.9 2.7l.1.1a1.4 1.4 0 0 0 2.4-1v-.1a1.7 1.7 0 1 1 3.4 0v.1a1.4 1.4 0 0 0 2.4 1l.1-.1a1.7 1.7 0 1 1 2.4 2.4l-.1.1a1.4 1.4 0 0 0 1 2.4h.1a1.7 1.7 0 1 1 0 3.4h-.1a1.4 1.4 0 0 0-1.3.9Z',
  close: 'M5 5l10 10M15 5 5 15',
  more: 'M4 10h.01M10 10h.01M16 10h.01',
  dots: 'M10 4h.01M10 10h.01M10 16h.01',
  record: 'M10 17a7 7 0 1 0 0-14 7 7 0 0 0 0 14Z',
  captions:
    'M3 5.5A1.5 1.5 0 0 1 4.5 4h11A1.5 1.5 0 0 1 17 5.5v9a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 3 14.5v-9ZM9 8.6a2 2 0 1 0 0 2.8M15 8.6a2 2 0 1 0 0 2.8',
  lock: 'M5.5 9V6.5a4.5 4.5 0 0 1 9 0V9M4.5 9h11v8.5h-11V9Z',
  bell: 'M5 14V9a5 5 0 0 1 10 0v5l1.5 2h-13L5 14ZM8.3 18a2 2 0 0 0 3.4 0',
  bellOff: 'M5 14V9a5 5 0 0 1 7.9-4.1M15 9v5l1.5 2h-13M8.3 18a2 2 0 0 0 3.4 0M3 3l14 14',
  star: 'M10 2.5l2.3 4.8 5.2.7-3.8 3.6.9 5.2L10 14.3l-4.6 2.5.9-5.2L2.5 8l5.2-.7L10 2.5Z',
  clock: 'M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16ZM10 5.5V10l3 2',
  screen: 'M2.5 4h15v10h-15zM7 17h6M10 14v3',
  back: 'M12.5 4.5 7 10l5.5 5.5',
  stop: 'M6 6h8v8H6z',
  mic: 'M10 2.5a2.5 2.5 0 0 0-2.5 2.5v5a2.5 2.5 0 0 0 5 0V5A2.5 2.5 0 0 0 10 2.5ZM4.5 9.5a5.5 5.5 0 0 0 11 0M10 15v2.5',
  micOff:
    'M12.5 8.3V5a2.5 2.5 0 0 0-4.9-.7M7.5 7.5V10a2.5 2.5 0 0 0 4.2 1.8M4.5 9.5a5.5 5.5 0 0 0 9 4.2M15.5 9.5a5.4 5.4 0 0 1-.4 2M10 15v2.5M3 3l14 14',
  camera:
    'M2.5 6A1.5 1.5 0 0 1 4 4.5h7.5A1.5 1.5 0 0 1 13 6v8a1.5 1.5 0 0 1-1.5 1.5H4A1.5 1.5 0 0 1 2.5 14V6ZM13 8.5l4.5-2.5v8L13 11.5',
  cameraOff:
    'M6.5 4.5h5A1.5 1.5 0 0 1 13 6v5M13 8.5l4.5-2.5v8l-3-1.7M11.5 15.5H4A1.5 1.5 0 0 1 2.5 14V6c0-.6.3-1 .8-1.3M3 3l14 14',
} as const;

export type IconName = keyof typeof PATHS;

/** Filled rather than stroked: the record dot and a chosen star. */
const FILLED: ReadonlySet<IconName> = new Set(['record']);

export function Icon({
  name,
  size = 20,
  filled = FILLED.has(name),
  className,
}: {
  name: IconName;
  size?: number;
  filled?: boolean;
  className?: string;
}) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 20 20"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={name === 'more' || name === 'dots' ? 2.6 : 1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
