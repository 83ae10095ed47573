/**
 * The meeting's live transcript: each final caption segment (speaker, text, times) is sent to
 * Convene (`POST /api/v1/captions/segments`, the URL in the dispatch's metadata), authenticated
 * with the captions agent's own media token of the room. Sent in batches (at most one request a
 * second per room), retried a few times when Convene does not answer; the queue is bounded, so a
 * Convene that is down for long costs segments of its transcript, never the worker's memory.
 */
export interface LiveSegment {
  id: string;
  participantIdentity: string;
  text: string;
  startedAt: Date;
  endedAt: Date;
}

export const LIVE_NOTES_LIMITS = { batch: 50, queued: 1_000, flushMs: 1_000, attempts: 3 };

export class LiveNotes {
  private queue: LiveSegment[] = [];
  private timer?: NodeJS.Timeout;
  private sending = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly url: string,
    private readonly token: () => Promise<string>,
    private readonly log: (msg: string) => void,
  ) {}

  add(segment: LiveSegment) {
    if (this.queue.length >= LIVE_NOTES_LIMITS.queued) {
      this.queue.shift();
      if (this.dropped++ === 0) this.log(`captions: the live transcript's queue is full; dropping its oldest segments`);
    }
    this.queue.push(segment);
    if (this.queue.length >= LIVE_NOTES_LIMITS.batch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), LIVE_NOTES_LIMITS.flushMs);
  }

  /** Sends what is queued (one request at a time, in order). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sending = this.sending.then(async () => {
      while (this.queue.length) {
        const batch = this.queue.splice(0, LIVE_NOTES_LIMITS.batch);
        await this.send(batch);
      }
    });
    return this.sending;
  }

  private async send(segments: LiveSegment[]) {
    const body = JSON.stringify({
      segments: segments.map((s) => ({ ...s, startedAt: s.startedAt.toISOString(), endedAt: s.endedAt.toISOString() })),
    });
    for (let attempt = 1; attempt <= LIVE_NOTES_LIMITS.attempts; attempt++) {
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await this.token()}` },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        if (res.ok) return;
        // A refusal (4xx) is the same on a retry: those segments are not kept.
        if (res.status < 500 && res.status !== 429) {
          this.log(`captions: the live transcript refused ${segments.length} segments: ${res.status}`);
          return;
        }
      } catch (err) {
        if (attempt === LIVE_NOTES_LIMITS.attempts)
          this.log(`captions: ${segments.length} segments not kept: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}
