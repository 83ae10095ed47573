import type { Tenant } from '@/lib/generated/prisma/client';
import { transcriptsOfSession } from '@/lib/domain/transcript-reads';
import { latestSummaries } from '@/lib/domain/summaries';
import { Badge } from '@/components/console/Badge';
import { Card } from '@/components/console/Card';
import { fmtTime } from '@/components/console/format';
import { secondaryButton } from '@/components/console/styles';
import { Empty } from '@/components/console/Table';

const SOURCE_LABEL = {
  RECORDING: 'From the recording',
  PARTICIPANT_RECORDINGS: 'From each speaker’s recording',
  CAPTIONS: 'From the live captions',
} as const;

const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
};

/**
 * A session's notes on its console page: each transcript with its speakers, what they said, and
 * downloads in each format; the latest summary of each (overview, decisions, action items, open
 * questions). Live transcripts show what the captions have kept so far.
 */
export async function SessionNotes({
  tenant,
  roomId,
  sessionId,
}: {
  tenant: Tenant;
  roomId: string;
  sessionId: string;
}) {
  const transcripts = await transcriptsOfSession(tenant, sessionId);
  const summaries = await latestSummaries(
    tenant,
    transcripts.map((t) => t.id),
  );
  return (
    <section aria-label="Meeting notes" className="mt-8 space-y-4" data-testid="session-notes">
      <h2 className="text-lg font-semibold">Meeting notes</h2>
      {!transcripts.length && (
        <Empty>
          No transcript of this session. Rooms with AI features get one from their live captions, their participant
          recordings or their recording.
        </Empty>
      )}
      {transcripts.map((t) => {
        const summary = summaries.get(t.id);
        const base = `/console/rooms/${roomId}/sessions/${sessionId}/transcripts/${t.id}`;
        return (
          <Card key={t.id} title={`${SOURCE_LABEL[t.source]} · ${fmtTime(t.createdAt)}`}>
            <div className="mb-3 flex flex-wrap items-center gap-2 text-sm" data-testid="transcript">
              <Badge tone={t.status === 'COMPLETED' ? 'green' : t.status === 'FAILED' ? 'red' : 'slate'}>
                {t.status.toLowerCase()}
              </Badge>
              {t.speakers.length > 0 && (
                <span className="text-slate-600 dark:text-slate-400">
                  Speakers: {t.speakers.map((s) => s.name).join(', ')}
                </span>
              )}
              {t.error && <span className="text-red-700 dark:text-red-400">{t.error}</span>}
              {(t.status === 'COMPLETED' || t.status === 'LIVE') && (
                <span className="ml-auto flex gap-2">
                  {(['vtt', 'srt', 'txt', 'json'] as const).map((format) => (
                    <a key={format} href={`${base}/${format}`} className={secondaryButton} download>
                      {format === 'txt' ? 'Text' : format.toUpperCase()}
                    </a>
                  ))}
                </span>
              )}
            </div>
            {summary && (
              <div
                className="mb-4 rounded border border-slate-200 p-3 text-sm dark:border-slate-800"
                data-testid="summary"
              >
                <h3 className="mb-1 font-semibold">
                  Summary ({summary.kind}){' '}
                  <Badge tone={summary.status === 'COMPLETED' ? 'green' : 'slate'}>
                    {summary.status.toLowerCase()}
                  </Badge>
                </h3>
                {summary.error && <p className="text-red-700 dark:text-red-400">{summary.error}</p>}
                {summary.overview && <p className="mb-2">{summary.overview}</p>}
                {(
                  [
                    ['Decisions', summary.decisions],
                    ['Action items', summary.actionItems.map((a) => (a.owner ? `${a.text} (${a.owner})` : a.text))],
                    ['Open questions', summary.openQuestions],
                  ] as const
                ).map(([label, items]) =>
                  items.length ? (
                    <div key={label} className="mb-2">
                      <h4 className="font-medium">{label}</h4>
                      <ul className="list-disc pl-5">
                        {items.map((item) => (
                          <li key={item}>{item}</li>
                        ))}
                      </ul>
                    </div>
                  ) : null,
                )}
              </div>
            )}
            {t.segments?.length ? (
              <ol className="max-h-96 space-y-1 overflow-y-auto text-sm" aria-label="Transcript">
                {t.segments.map((s, i) => (
                  <li key={`${s.start}-${i}`}>
                    <span className="font-mono text-xs text-slate-500">{clock(s.start)}</span>{' '}
                    {s.speaker && <strong>{s.speaker}: </strong>}
                    {s.text}
                  </li>
                ))}
              </ol>
            ) : null}
          </Card>
        );
      })}
    </section>
  );
}
