'use client';

import { useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { FormField } from '@/components/console/FormField';
import { input } from '@/components/console/styles';
import { WebhookSecretRotation } from '@/components/console/WebhookSecretRotation';

/** The endpoint URL and event filter, the signing secret, and a test event. */
export function WebhookSettings({
  url,
  events,
  allEvents,
  canManage,
  save,
  rotateSecret,
  sendTest,
}: {
  url: string | null;
  events: string[] | null;
  allEvents: readonly string[];
  canManage: boolean;
  save: (input: { webhookUrl: string | null; webhookEvents: string[] | null }) => Promise<ActionResult<unknown>>;
  rotateSecret: (input: { overlapSeconds: number }) => Promise<ActionResult<{ webhookSecret: string }>>;
  sendTest: () => Promise<ActionResult<{ deliveryId: string }>>;
}) {
  const [draftUrl, setDraftUrl] = useState(url ?? '');
  const [all, setAll] = useState(events === null);
  const [selected, setSelected] = useState<Set<string>>(new Set(events ?? []));
  const urlError = draftUrl && !/^https?:\/\/\S+$/.test(draftUrl) ? 'Enter a full URL starting with https://' : '';
  const filterError = !all && selected.size === 0 ? 'Choose at least one event, or send all events.' : '';
  const viewerNote = 'Your role can view webhooks but not change them';

  const toggle = (name: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(name)) n.delete(name);
      else n.add(name);
      return n;
    });

  return (
    <div className="space-y-6">
      <form onSubmit={(e) => e.preventDefault()} className="space-y-4" aria-label="Webhook endpoint">
        <FormField
          id="webhook-url"
          label="Endpoint URL"
          help="HTTPS on a public address. Leave empty to stop deliveries."
          error={urlError}
        >
          <input
            id="webhook-url"
            className={input}
            type="url"
            value={draftUrl}
            onChange={(e) => setDraftUrl(e.target.value)}
            placeholder="https://example.com/webhooks/convene"
            aria-invalid={!!urlError}
            aria-describedby="webhook-url-help"
            disabled={!canManage}
          />
        </FormField>
        <fieldset>
          <legend className="mb-1 text-sm font-medium">Events</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} disabled={!canManage} /> All
            events
          </label>
          {!all && (
            <div className="mt-2 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
              {allEvents.map((name) => (
                <label key={name} className="flex items-center gap-2 font-mono text-xs">
                  <input
                    type="checkbox"
                    checked={selected.has(name)}
                    onChange={() => toggle(name)}
                    disabled={!canManage}
                  />{' '}
                  {name}
                </label>
              ))}
            </div>
          )}
          {filterError && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{filterError}</p>}
        </fieldset>
        <ActionButton
          label="Save endpoint"
          tone="primary"
          success="Webhook settings saved"
          disabled={!canManage || !!urlError || !!filterError}
          disabledReason={canManage ? undefined : viewerNote}
          action={() => save({ webhookUrl: draftUrl.trim() || null, webhookEvents: all ? null : [...selected] })}
        />
      </form>

      <WebhookSecretRotation
        id="overlap"
        rotate={rotateSecret}
        canManage={canManage}
        label="Rotate signing secret"
        confirm="Rotate the signing secret?"
        success="New signing secret created"
        disabledReason={viewerNote}
        revealLabel="Your new webhook signing secret"
        className="border-t border-slate-200 pt-4 dark:border-slate-800"
      >
        <ActionButton
          label="Send test event"
          success="Test event queued — watch the deliveries below"
          action={sendTest}
          disabled={!canManage || !url}
          disabledReason={!url ? 'Save an endpoint URL first' : viewerNote}
        />
      </WebhookSecretRotation>
    </div>
  );
}
