/**
 * The built-in virtual backgrounds: gradients we paint ourselves (no downloaded photos), shown as
 * CSS swatches in the settings and painted on a canvas when chosen. Pure data and a painter; the
 * processor that uses them (background.ts) loads only when someone picks a background.
 */
export interface BuiltInBackground {
  id: 'dusk' | 'ocean' | 'studio';
  /** Colour stops, top-left to bottom-right. */
  stops: readonly string[];
}

export const BUILT_IN_BACKGROUNDS: readonly BuiltInBackground[] = [
  { id: 'dusk', stops: ['#312e81', '#9d174d', '#f59e0b'] },
  { id: 'ocean', stops: ['#0c4a6e', '#0e7490', '#5eead4'] },
  { id: 'studio', stops: ['#1f2937', '#4b5563', '#d1d5db'] },
];

/** The swatch the settings show for a built-in background. */
export function swatch(b: BuiltInBackground): string {
  return `linear-gradient(135deg, ${b.stops.join(', ')})`;
}

/** Paints a built-in background (16:9, a soft light spot on the gradient) and returns it as a PNG data URL. */
export function paintBackground(b: BuiltInBackground, width = 1280, height = 720): string {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  const linear = ctx.createLinearGradient(0, 0, width, height);
  b.stops.forEach((stop, i) => {
    linear.addColorStop(i / Math.max(1, b.stops.length - 1), stop);
  });
  ctx.fillStyle = linear;
  ctx.fillRect(0, 0, width, height);
  const light = ctx.createRadialGradient(width * 0.7, height * 0.3, 0, width * 0.7, height * 0.3, width * 0.6);
  light.addColorStop(0, 'rgba(255,255,255,0.25)');
  light.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, width, height);
  return canvas.toDataURL('image/png');
}
