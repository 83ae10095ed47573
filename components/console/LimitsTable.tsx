import { LIMIT_NAMES, type Limits } from '@/lib/domain/plans';
import { Table, td } from '@/components/console/Table';

export const LIMIT_LABELS: Record<(typeof LIMIT_NAMES)[number], string> = {
  maxParticipantsPerRoom: 'Participants per room',
  concurrentLiveRooms: 'Concurrent live rooms',
  recordingMinutesPerMonth: 'Recording minutes per month',
  streamingMinutesPerMonth: 'Streaming minutes per month',
  captionMinutesPerMonth: 'Caption minutes per month',
  transcriptionMinutesPerMonth: 'Transcription minutes per month',
  summariesPerMonth: 'Summaries per month',
  concurrentStreams: 'Concurrent live streams',
  concurrentRecordings: 'Concurrent recordings',
  ingressEndpoints: 'Ingress endpoints',
  webhookEndpoints: 'Webhook endpoints',
  apiRequestsPerSecond: 'API requests per second',
};

export const fmtLimit = (n: number) => (n >= 1_000_000 ? 'Unlimited' : n.toLocaleString('en'));

/** Plan limits next to the resolved ones (plan merged with overrides). */
export function LimitsTable({
  plan,
  resolved,
  overrides,
}: {
  plan: Limits;
  resolved: Limits;
  overrides: Partial<Limits>;
}) {
  return (
    <Table caption="Limits" head={['Limit', 'Plan', 'Override', 'In effect']}>
      {LIMIT_NAMES.map((n) => (
        <tr key={n} data-testid={`limit-${n}`}>
          <th scope="row" className={`${td} text-left font-normal`}>
            {LIMIT_LABELS[n]}
          </th>
          <td className={`${td} tabular-nums`}>{fmtLimit(plan[n])}</td>
          <td className={`${td} tabular-nums`}>{overrides[n] === undefined ? '—' : fmtLimit(overrides[n]!)}</td>
          <td className={`${td} font-medium tabular-nums`} data-testid={`resolved-${n}`}>
            {fmtLimit(resolved[n])}
          </td>
        </tr>
      ))}
    </Table>
  );
}
