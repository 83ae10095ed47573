'use client';

import { Suspense, useDeferredValue, useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { FormField } from '@/components/console/FormField';
import { input } from '@/components/console/styles';
import {
  brandingFields,
  contrastRatio,
  MUTED_TEXT,
  TEXT_ON_ACCENT,
  type Branding,
  type ResolvedBranding,
} from '@/lib/domain/branding.schemas';
import '@livekit/components-styles';
import { HostedShell } from '@/components/call/HostedShell';
import { PreJoinLayout } from '@/components/call/PreJoinLayout';
import { PreJoinForm } from '@/components/call/PreJoinForm';
import { LANGUAGES, type Language } from '@/lib/i18n/languages';

/** The look this editor sets; the call UI's feature switches and virtual backgrounds are set through the API. */
type Key = 'productName' | 'logoUrl' | 'accentColor' | 'backgroundColor' | 'backgroundImageUrl' | 'defaultLanguage';
const KEYS: Key[] = [
  'productName',
  'logoUrl',
  'accentColor',
  'backgroundColor',
  'backgroundImageUrl',
  'defaultLanguage',
];
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', es: 'Español', fr: 'Français' };
const TEXT_FIELDS: { key: Exclude<Key, 'defaultLanguage'>; label: string; help: string; colour?: boolean }[] = [
  {
    key: 'productName',
    label: 'Product name',
    help: 'Shown beside the logo and in the browser tab. At most 60 characters.',
  },
  { key: 'logoUrl', label: 'Logo URL', help: 'An https:// image, shown at most 40 px high and 160 px wide.' },
  {
    key: 'accentColor',
    label: 'Accent colour',
    help: 'Buttons, as #rrggbb. White text goes on it: it needs a contrast of at least 4.5:1.',
    colour: true,
  },
  {
    key: 'backgroundColor',
    label: 'Background colour',
    help: 'The page ground, as #rrggbb. Light text goes on it: it needs a contrast of at least 4.5:1.',
    colour: true,
  },
  {
    key: 'backgroundImageUrl',
    label: 'Background image URL',
    help: 'Optional https:// image over the background colour, darkened so text stays readable.',
  },
];

/**
 * The tenant's call UI branding with a live preview of the pre-join screen. Each field is checked
 * with the API's own rules as you type; empty means "not set" (the fallback shows in the preview).
 */
export function BrandingEditor({
  own,
  fallback,
  canManage,
  save,
}: {
  own: Branding;
  fallback: ResolvedBranding;
  canManage: boolean;
  save: (input: Partial<Branding>) => Promise<ActionResult<unknown>>;
}) {
  const [draft, setDraft] = useState<Record<Key, string>>(
    () => Object.fromEntries(KEYS.map((k) => [k, own[k] ?? ''])) as Record<Key, string>,
  );
  const value = (key: Key) => (draft[key].trim() === '' ? null : draft[key].trim());
  const check = (key: Key) => {
    const parsed = brandingFields[key].safeParse(value(key));
    return parsed.success
      ? { ok: true as const, value: parsed.data }
      : { ok: false as const, error: parsed.error.issues[0]?.message ?? 'invalid' };
  };
  const checks = Object.fromEntries((Object.keys(draft) as Key[]).map((k) => [k, check(k)])) as Record<
    Key,
    ReturnType<typeof check>
  >;
  const invalid = Object.values(checks).some((c) => !c.ok);
  const pick = <K extends Key>(key: K) => {
    const c = checks[key];
    return (c.ok && c.value !== null ? c.value : fallback[key]) as ResolvedBranding[K];
  };
  const preview: ResolvedBranding = {
    ...fallback,
    productName: pick('productName'),
    logoUrl: pick('logoUrl'),
    accentColor: pick('accentColor'),
    backgroundColor: pick('backgroundColor'),
    backgroundImageUrl: pick('backgroundImageUrl'),
    defaultLanguage: pick('defaultLanguage'),
  };
  // A language not shown yet loads its texts first: meanwhile the preview stays in the last one.
  const previewLanguage = useDeferredValue(preview.defaultLanguage ?? 'en');
  const viewerNote = 'Your role can view the branding but not change it';

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <form onSubmit={(e) => e.preventDefault()} className="space-y-4" aria-label="Call UI branding">
        {TEXT_FIELDS.map(({ key, label, help, colour }) => {
          const c = checks[key];
          const ratio =
            colour && c.ok && c.value
              ? contrastRatio(c.value as string, key === 'accentColor' ? TEXT_ON_ACCENT : MUTED_TEXT)
              : null;
          return (
            <FormField
              key={key}
              id={`branding-${key}`}
              label={label}
              help={`${help}${ratio ? ` Contrast now: ${ratio}:1.` : ''}`}
              error={c.ok ? undefined : `${label} ${c.error}.`}
            >
              <div className="flex items-center gap-2">
                {colour && (
                  <input
                    type="color"
                    aria-label={`${label} picker`}
                    value={/^#[0-9a-fA-F]{6}$/.test(draft[key]) ? draft[key] : (fallback[key] as string)}
                    onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                    disabled={!canManage}
                    className="h-8 w-10 rounded border border-slate-300"
                  />
                )}
                <input
                  id={`branding-${key}`}
                  className={input}
                  value={draft[key]}
                  onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                  placeholder={(fallback[key] as string | null) ?? ''}
                  aria-invalid={!c.ok}
                  aria-describedby={`branding-${key}-help`}
                  disabled={!canManage}
                />
              </div>
            </FormField>
          );
        })}
        <FormField
          id="branding-defaultLanguage"
          label="Default language"
          help={
            <>
              Used when the join link names no language (<code>lang</code>).
            </>
          }
        >
          <select
            id="branding-defaultLanguage"
            className={input}
            value={draft.defaultLanguage}
            onChange={(e) => setDraft((d) => ({ ...d, defaultLanguage: e.target.value }))}
            aria-describedby="branding-defaultLanguage-help"
            disabled={!canManage}
          >
            <option value="">The participant’s browser language</option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </FormField>
        <ActionButton
          label="Save branding"
          tone="primary"
          success="Branding saved"
          disabled={!canManage || invalid}
          disabledReason={canManage ? (invalid ? 'Fix the fields marked in red' : undefined) : viewerNote}
          action={() =>
            save(Object.fromEntries((Object.keys(draft) as Key[]).map((k) => [k, value(k)])) as Partial<Branding>)
          }
        />
      </form>

      {/* The real pre-join screen's parts (PreJoinLayout, PreJoinForm with no devices started) in the
          tenant's branding and language: the preview is what participants see. */}
      <figure aria-label="Preview of the pre-join screen" className="min-w-0">
        <figcaption className="mb-2 text-sm font-medium">Preview</figcaption>
        <div className="overflow-hidden rounded-lg">
          <Suspense>
            <HostedShell branding={preview} lang={previewLanguage} fill={false} testId="branding-preview">
              <PreJoinLayout roomName="Physics 101" name="Ada Lovelace" fill={false}>
                <PreJoinForm name="Ada Lovelace" canPublish demo onSubmit={() => undefined} />
              </PreJoinLayout>
            </HostedShell>
          </Suspense>
        </div>
      </figure>
    </div>
  );
}
