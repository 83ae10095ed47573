/**
 * The lifecycle job's sweep over meeting-notes jobs (transcripts, summaries), a few per run: those
 * never run (PENDING for a while), whose retry is due (FAILED with nextAttemptAt passed), or whose
 * worker died (PROCESSING for longer than a job may run; tried again as a retry).
 */
export const NOTES_JOBS_PER_SWEEP = 5;

export function dueNotesJobs(now: Date) {
  return {
    OR: [
      { status: 'PENDING' as const, createdAt: { lt: new Date(now.getTime() - 10_000) } },
      { status: 'FAILED' as const, nextAttemptAt: { lte: now } },
      { status: 'PROCESSING' as const, updatedAt: { lt: new Date(now.getTime() - 20 * 60_000) } },
    ],
  };
}

/** What a job whose worker died becomes: FAILED, its retry due now. */
export function stoppedNotesJob(what: 'transcript' | 'summary', now: Date) {
  return { status: 'FAILED' as const, error: `the ${what} job stopped before it finished`, nextAttemptAt: now };
}
