'use client';

import { useState } from 'react';
import type { LocalVideoTrack } from 'livekit-client';
import { useT } from '@/components/call/useT';
import { BUILT_IN_BACKGROUNDS, paintBackground, swatch } from '@/components/call/settings/backgrounds';

/** What the picker shows as chosen: none, blur, a built-in id or a tenant image's index. */
type Choice = 'none' | 'blur' | `builtin:${string}` | `image:${number}`;

/**
 * The settings' background choice: none, blur, our built-in gradients and the tenant's own images
 * (branding `virtualBackgrounds`). The processor (background.ts, with MediaPipe) is imported on
 * the first choice, not before.
 */
export function BackgroundPicker({
  camera,
  images,
  run,
}: {
  camera: LocalVideoTrack;
  images: readonly string[];
  run: (work: () => Promise<void>) => Promise<void>;
}) {
  const t = useT();
  const [chosen, setChosen] = useState<Choice>('none');

  const choose = (next: Choice) =>
    run(async () => {
      const { setBackground } = await import('@/components/call/settings/background');
      if (next === 'none' || next === 'blur') await setBackground(camera, { kind: next });
      else if (next.startsWith('builtin:')) {
        const builtIn = BUILT_IN_BACKGROUNDS.find((b) => `builtin:${b.id}` === next);
        if (!builtIn) return;
        await setBackground(camera, { kind: 'image', url: paintBackground(builtIn) });
      } else await setBackground(camera, { kind: 'image', url: images[Number(next.slice('image:'.length))] });
      setChosen(next);
    });

  const options: { value: Choice; label: string; preview?: React.CSSProperties }[] = [
    { value: 'none', label: t.settings.backgrounds.none },
    {
      value: 'blur',
      label: t.settings.backgrounds.blur,
      preview: { backgroundImage: swatch(BUILT_IN_BACKGROUNDS[2]), filter: 'blur(3px)' },
    },
    ...BUILT_IN_BACKGROUNDS.map((b) => ({
      value: `builtin:${b.id}` as Choice,
      label: t.settings.backgrounds[b.id],
      preview: { backgroundImage: swatch(b) },
    })),
    ...images.map((url, i) => ({
      value: `image:${i}` as Choice,
      label: t.settings.backgroundImage(i + 1),
      // The URL passed the branding rules (https, no quotes, brackets or spaces): safe inside url("…").
      preview: { backgroundImage: `url("${url}")` },
    })),
  ];

  return (
    <fieldset className="mb-3" data-testid="background-picker">
      <legend className="mb-1 font-semibold">{t.settings.background}</legend>
      {/* Columns at least as wide as the longest one-word name (German "Abenddämmerung"): names never break inside a word. */}
      <div className="grid grid-cols-[repeat(auto-fill,minmax(7rem,1fr))] gap-2">
        {options.map(({ value, label, preview }) => (
          <label
            key={value}
            className="flex cursor-pointer flex-col items-center gap-1 rounded p-1 text-center text-xs leading-tight has-[:checked]:ring-2 has-[:checked]:ring-sky-300 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-sky-300"
          >
            <input
              type="radio"
              name="convene-background"
              className="sr-only"
              checked={chosen === value}
              onChange={() => void choose(value)}
            />
            <span
              aria-hidden="true"
              className="block h-10 w-full rounded bg-slate-700 bg-cover bg-center"
              style={preview}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
