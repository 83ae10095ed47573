'use client';

import { useMemo, useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { LimitsTable, LIMIT_LABELS } from '@/components/console/LimitsTable';
import { PlanSelect } from '@/components/console/PlanSelect';
import { LIMIT_NAMES, PLANS, resolveLimits, type EntitlementOverrides, type PlanName } from '@/lib/domain/plans';
import { input } from '@/components/console/styles';

/** Plan and entitlement overrides, with the resolved limits previewed before saving. */
export function TenantEditor({
  plan,
  overrides,
  canManage,
  save,
}: {
  plan: string;
  overrides: EntitlementOverrides;
  canManage: boolean;
  save: (input: {
    plan: PlanName;
    entitlementOverrides: EntitlementOverrides | null;
  }) => Promise<ActionResult<unknown>>;
}) {
  const [draftPlan, setDraftPlan] = useState(plan as PlanName);
  const [draft, setDraft] = useState<Record<string, string>>(
    Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, String(v)])),
  );
  const parsed = useMemo(() => {
    const out: EntitlementOverrides = {};
    const errors: string[] = [];
    for (const n of LIMIT_NAMES) {
      const raw = draft[n]?.trim();
      if (!raw) continue;
      const v = Number(raw);
      if (!Number.isInteger(v) || v < 0 || v > 1_000_000_000) errors.push(`${LIMIT_LABELS[n]}: a whole number from 0`);
      else out[n] = v;
    }
    return { overrides: out, errors };
  }, [draft]);
  const resolved = resolveLimits(draftPlan, parsed.overrides);

  return (
    <form onSubmit={(e) => e.preventDefault()} className="space-y-4" aria-label="Plan and overrides">
      <PlanSelect value={draftPlan} onChange={setDraftPlan} disabled={!canManage} className="max-w-xs" />
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Overrides (empty = the plan's value)</legend>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {LIMIT_NAMES.map((n) => (
            <label key={n} className="text-sm">
              <span className="mb-1 block">{LIMIT_LABELS[n]}</span>
              <input
                className={input}
                inputMode="numeric"
                name={n}
                value={draft[n] ?? ''}
                placeholder={String(PLANS[draftPlan][n])}
                disabled={!canManage}
                onChange={(e) => setDraft((d) => ({ ...d, [n]: e.target.value }))}
              />
            </label>
          ))}
        </div>
      </fieldset>
      {parsed.errors.length > 0 && (
        <ul role="alert" className="text-sm text-red-700 dark:text-red-300">
          {parsed.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <h3 className="text-sm font-semibold">Preview</h3>
      <LimitsTable plan={PLANS[draftPlan]} resolved={resolved} overrides={parsed.overrides} />
      <ActionButton
        label="Save plan and overrides"
        tone="primary"
        success="Plan and overrides saved"
        disabled={!canManage || parsed.errors.length > 0}
        disabledReason="Fix the overrides first"
        action={() =>
          save({
            plan: draftPlan,
            entitlementOverrides: Object.keys(parsed.overrides).length ? parsed.overrides : null,
          })
        }
      />
    </form>
  );
}
