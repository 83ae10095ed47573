import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { runLifecycle } from '@/lib/domain/lifecycle';
import { runTranscript } from '@/lib/domain/transcripts';
import { runSummary } from '@/lib/domain/summaries';
import { ensureQueue } from '@/lib/runtime/queue';
import { enqueueNotesJob, startNotesJobs } from '@/lib/runtime/notes-jobs';

/**
 * The room lifecycle job on the shared PostgreSQL queue. The queue's 'short' policy keeps at most
 * one run queued across every instance; each run queues the next one LIFECYCLE_INTERVAL_SECONDS
 * later. The schedule lives in the database, so it survives the instance that queued it: a
 * restart or a killed instance loses nothing.
 */
const LIFECYCLE_QUEUE = 'room-lifecycle';

/** Transcript and summary jobs (lib/runtime/notes-jobs.ts, lib/domain/transcripts.ts, summaries.ts). */
export async function startTranscriptJobs(): Promise<void> {
  await startNotesJobs({ runTranscript, runSummary });
}

/** Queues a transcript if this process runs the queue; otherwise the lifecycle sweep picks it up. */
export async function enqueueTranscript(transcriptId: string): Promise<void> {
  await enqueueNotesJob('transcript', transcriptId);
}

export async function startLifecycleJobs(): Promise<void> {
  const interval = config().LIFECYCLE_INTERVAL_SECONDS;
  const boss = await ensureQueue(LIFECYCLE_QUEUE, {
    policy: 'short',
    retryLimit: 5,
    retryDelay: interval,
    expireInSeconds: 300,
  });
  await boss.work(LIFECYCLE_QUEUE, { pollingIntervalSeconds: Math.min(2, interval) }, async () => {
    try {
      const result = await runLifecycle();
      if (result.autoEnded || result.emptyEnded || result.reconciled.ended || result.reconciled.corrected)
        log.info(result, 'room lifecycle');
    } finally {
      await boss.send(LIFECYCLE_QUEUE, {}, { startAfter: interval });
    }
  });
  await boss.send(LIFECYCLE_QUEUE, {}, { startAfter: interval });
}
