import { Badge } from '@/components/console/Badge';
import type { QualityIssue } from '@/lib/domain/quality-score';

/** How the console names a 1–5 quality score (docs/console.md, "Call quality"). */
export function scoreLabel(score: number): string {
  return score >= 4.5 ? 'excellent' : score >= 3.5 ? 'good' : score >= 2.5 ? 'fair' : score >= 1.5 ? 'poor' : 'bad';
}

export const ISSUE_LABELS: Record<QualityIssue, string> = {
  packet_loss: 'packet loss',
  latency: 'latency',
  jitter: 'jitter',
  audio_concealment: 'choppy audio',
  video_limited: 'video held back',
};

export function ScoreBadge({ score }: { score: number | null }) {
  if (score === null) return <Badge>no data</Badge>;
  return (
    <Badge tone={score >= 3.5 ? 'green' : score >= 2.5 ? 'amber' : 'red'}>
      {scoreLabel(score)} · {score.toFixed(1)}
    </Badge>
  );
}
