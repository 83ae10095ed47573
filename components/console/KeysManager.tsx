'use client';

import { useOptimistic, useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { Badge, statusTone } from '@/components/console/Badge';
import { fmtDate } from '@/components/console/format';
import { GraceSelect } from '@/components/console/GraceSelect';
import { RevealOnce } from '@/components/console/RevealOnce';
import { input } from '@/components/console/styles';
import { Table, cell } from '@/components/console/Table';

export interface KeyRow {
  id: string;
  name: string | null;
  hint: string;
  mode: string;
  status: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

type Rotate = (
  keyId: string,
  input: { gracePeriodSeconds: number },
) => Promise<ActionResult<{ plainTextKey: string; previousExpiresAt: string | null }>>;

/** API keys: list with hints, create, rotate with a grace period, revoke. Plaintext is shown once. */
export function KeysManager({
  keys,
  canManage,
  rotate,
  create,
  revoke,
}: {
  keys: KeyRow[];
  canManage: boolean;
  rotate: Rotate;
  create?: (input: { name: string }) => Promise<ActionResult<{ plainTextKey: string }>>;
  revoke?: (keyId: string) => Promise<ActionResult<unknown>>;
}) {
  const [revealed, setRevealed] = useState<string | null>(null);
  // Revocation shows at once; if the server refuses, the refresh brings the row back as it was.
  const [rows, markRevoked] = useOptimistic(keys, (current, id: string) =>
    current.map((k) => (k.id === id ? { ...k, status: 'revoked' } : k)),
  );
  const [grace, setGrace] = useState(3600);
  const [name, setName] = useState('');
  const viewerNote = 'Your role can view keys but not change them';
  return (
    <div>
      {revealed && <RevealOnce label="Your new API key" value={revealed} onDismiss={() => setRevealed(null)} />}
      <div className="mb-4 flex flex-wrap items-end gap-4">
        {create && (
          <form className="flex items-end gap-2" onSubmit={(e) => e.preventDefault()}>
            <label className="text-sm">
              <span className="mb-1 block font-medium">New key name</span>
              <input
                className={input}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. Production backend"
                maxLength={100}
              />
            </label>
            <ActionButton
              action={() => create({ name: name || 'API key' })}
              label="Create key"
              tone="primary"
              success="Key created"
              disabled={!canManage}
              disabledReason={viewerNote}
              onDone={(d) => {
                setRevealed(d.plainTextKey);
                setName('');
              }}
            />
          </form>
        )}
        <GraceSelect id="grace" value={grace} onChange={setGrace} label="On rotation, the old key keeps working for" />
      </div>
      <Table caption="API keys" head={['Name', 'Key', 'Status', 'Last used', 'Created', '']} stack>
        {rows.map((k) => (
          <tr key={k.id} data-testid="key-row">
            <td {...cell('Name')}>
              <span>
                {k.name ?? '—'}
                <span className="block text-xs text-slate-500">{k.mode}</span>
              </span>
            </td>
            <td {...cell('Key', 'whitespace-nowrap font-mono text-xs')}>{k.hint}</td>
            <td {...cell('Status')}>
              <span>
                <Badge tone={statusTone(k.status)}>{k.status}</Badge>
                {k.status === 'expiring' && k.expiresAt && (
                  <span className="mt-1 block text-xs">expires {fmtDate(k.expiresAt)}</span>
                )}
              </span>
            </td>
            <td {...cell('Last used')}>{fmtDate(k.lastUsedAt)}</td>
            <td {...cell('Created')}>{fmtDate(k.createdAt)}</td>
            <td {...cell('Actions', 'whitespace-nowrap sm:text-right')}>
              {k.status === 'active' && (
                <span className="inline-flex gap-2">
                  <ActionButton
                    action={() => rotate(k.id, { gracePeriodSeconds: grace })}
                    label="Rotate"
                    success={(d) =>
                      d.previousExpiresAt
                        ? `Rotated; the old key works until ${fmtDate(d.previousExpiresAt)}`
                        : 'Rotated; the old key is revoked'
                    }
                    confirm="Rotate this key?"
                    disabled={!canManage}
                    disabledReason={viewerNote}
                    onDone={(d) => setRevealed(d.plainTextKey)}
                  />
                  {revoke && (
                    <ActionButton
                      action={() => {
                        markRevoked(k.id);
                        return revoke(k.id);
                      }}
                      label="Revoke"
                      tone="danger"
                      confirm="Revoke now? Requests with it fail at once."
                      success="Key revoked"
                      disabled={!canManage}
                      disabledReason={viewerNote}
                    />
                  )}
                </span>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
