import { replayDeliveryAction } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { Badge, statusTone } from '@/components/console/Badge';
import { fmtDate } from '@/components/console/format';
import { Empty, Table, td } from '@/components/console/Table';
import type { deliveryView } from '@/lib/domain/webhooks';

type Delivery = ReturnType<typeof deliveryView>;

/** Deliveries with their attempts (request, response, timing) and a replay button. */
export function DeliveriesTable({ deliveries, canManage }: { deliveries: Delivery[]; canManage: boolean }) {
  if (!deliveries.length) return <Empty>No deliveries match. Send a test event to see one here.</Empty>;
  return (
    <Table caption="Webhook deliveries" head={['Event', 'Status', 'Attempts', 'Created', '']}>
      {deliveries.map((d) => (
        <tr key={d.id} data-testid="delivery-row" data-status={d.status}>
          <td className={td}>
            <span className="font-mono">{d.event}</span>
            <div className="font-mono text-xs text-slate-500">
              {d.eventId}
              {d.replayOfId && ' · replay'}
            </div>
            <details className="mt-2">
              <summary className="cursor-pointer text-xs text-blue-700 dark:text-blue-300">Attempt details</summary>
              <ol className="mt-2 space-y-3">
                {d.attempts.map((a) => (
                  <li
                    key={a.attemptNumber}
                    className="rounded border border-slate-200 p-2 text-xs dark:border-slate-800"
                  >
                    <p className="font-medium">
                      Attempt {a.attemptNumber} ·{' '}
                      {a.responseStatus ? `HTTP ${a.responseStatus}` : (a.error ?? 'no response')} · {a.durationMs} ms ·{' '}
                      {fmtDate(a.createdAt)}
                      {a.willRetry && a.nextRetryAt && ` · retry at ${fmtDate(a.nextRetryAt)}`}
                    </p>
                    <p className="mt-1 break-all">POST {a.requestUrl}</p>
                    <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 dark:bg-slate-900">
                      {a.requestBody}
                    </pre>
                    {a.responseBody && (
                      <pre className="mt-1 max-h-24 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 dark:bg-slate-900">
                        {a.responseBody}
                      </pre>
                    )}
                  </li>
                ))}
                {!d.attempts.length && <li className="text-xs">Not attempted yet.</li>}
              </ol>
            </details>
          </td>
          <td className={td}>
            <Badge tone={statusTone(d.status)}>{d.status}</Badge>
            {d.lastError && (
              <div className="mt-1 max-w-xs truncate text-xs" title={d.lastError}>
                {d.lastError}
              </div>
            )}
          </td>
          <td className={`${td} tabular-nums`}>{d.attemptCount}</td>
          <td className={td}>{fmtDate(d.createdAt)}</td>
          <td className={`${td} text-right`}>
            {(d.status === 'delivered' || d.status === 'failed') && (
              <ActionButton
                action={replayDeliveryAction.bind(null, d.id)}
                label="Replay"
                success="Replay queued"
                disabled={!canManage}
                disabledReason="Your role cannot replay deliveries"
              />
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}
