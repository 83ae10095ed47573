import { log } from '@/lib/log';
import { ensureQueue } from '@/lib/runtime/queue';
import { processState } from '@/lib/runtime/process-state';

/**
 * Meeting-notes jobs on the shared PostgreSQL queue: transcripts and summaries, one job per row.
 * The rows hold the truth (status, attempts, when the next try is due): a job only says "look at
 * this one now", so a job that runs before its row committed, twice, or never is harmless — the
 * lifecycle sweep (runDueNotes) picks up whatever is due and was not run. pg-boss's own retries
 * are off: a provider's failure is retried on the row's schedule (backoff), by a job queued for then.
 */
const QUEUES = { transcript: 'transcripts', summary: 'summaries' } as const;
export type NotesJob = keyof typeof QUEUES;
const OPTIONS = { retryLimit: 0, expireInSeconds: 900 };
const notes = processState('notesJobs', () => ({ running: false }));

/**
 * Starts the workers. The runners are handed in (lib/runtime/jobs.ts) rather than imported: the
 * domain modules queue jobs through this one, so it imports none of them.
 */
export async function startNotesJobs({
  runTranscript,
  runSummary,
}: {
  runTranscript: (id: string) => Promise<unknown>;
  runSummary: (id: string) => Promise<unknown>;
}): Promise<void> {
  const boss = await ensureQueue(QUEUES.transcript, OPTIONS);
  await ensureQueue(QUEUES.summary, OPTIONS);
  await boss.work<{ id: string; transcriptId?: string }>(
    QUEUES.transcript,
    { pollingIntervalSeconds: 1 },
    async ([job]) => {
      await runTranscript(job.data.id ?? job.data.transcriptId);
    },
  );
  await boss.work<{ id: string }>(QUEUES.summary, { pollingIntervalSeconds: 1 }, async ([job]) => {
    await runSummary(job.data.id);
  });
  notes.running = true;
}

/**
 * Asks for a transcript or summary to be run (now, or after `startAfterSeconds`). Never throws:
 * a lost request is made good by the sweep. Called inside a transaction, a short delay lets it commit first.
 */
export function enqueueNotesJob(kind: NotesJob, id: string, { startAfterSeconds = 0 } = {}): Promise<void> {
  if (!notes.running) return Promise.resolve();
  return ensureQueue(QUEUES[kind], OPTIONS)
    .then((boss) => boss.send(QUEUES[kind], { id }, startAfterSeconds > 0 ? { startAfter: startAfterSeconds } : {}))
    .then(
      () => undefined,
      (err: unknown) =>
        log.warn({ kind, id, err: (err as Error).message }, 'notes job not queued; the sweep will run it'),
    );
}
