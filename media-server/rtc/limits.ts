/**
 * What one signaling connection may cost this process, and the two tools that hold it to that: a
 * token bucket for rates, and a log that sums up a flood of refusals instead of writing a line each.
 */
/**
 * What one connection may ask of this process, so a hostile or broken client costs only its own
 * connection: published tracks (LiveKit's clients publish a handful), media sections in one offer,
 * and signal messages (a token bucket: a join's burst of ICE candidates fits, a flood does not).
 */
export const SESSION_LIMITS = {
  tracksPerParticipant: 32,
  // v1: a client's receive sections are reused as people come and go, so they number about the
  // most tracks it received at once; far from what froze the process (1,000).
  mediaSectionsPerOffer: 128,
  signalBurst: 200,
  signalMessagesPerSecond: 100,
  // Data packets one participant may relay (LiveKit-like, generous for chat and reactions): a
  // flood of large packets once broke a bystander browser's data channel.
  dataPacketsPerSecond: 100,
  dataPacketBurst: 200,
  dataBytesPerSecond: 1024 * 1024,
  dataByteBurst: 2 * 1024 * 1024,
  // Data waiting to go out to one receiver (queued in its SCTP association): past it that receiver
  // misses packets (LiveKit drops for a slow reader too) instead of this process queueing, and
  // working through, what it cannot take — a flood relayed to a slow browser once stalled everyone.
  dataReceiverQueueBytes: 1024 * 1024,
  // Packets handed to one receiver's channels at a time (data-relay.ts says why); the rest wait
  // in the relay, within the bytes above.
  dataSendsInFlight: 16,
  // An SDP is parsed in one go, about a millisecond per 10 KiB here (werift): bounded in size (a
  // 128-section offer is well under it) and in bytes per second, so renegotiation floods cannot
  // hold the process; an ICE candidate is one line.
  sdpBytes: 256 * 1024,
  sdpBytesPerSecond: 128 * 1024,
  sdpByteBurst: 512 * 1024,
  candidateBytes: 4096,
};

/**
 * Logs a repeated event with its count once an interval, not once each: the first at once, what
 * follows within the interval in one line at its end. A client repeating a refused request
 * thousands of times costs two lines a second, not a line a request.
 */
export class IntervalLog {
  private counts = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly log: (msg: string) => void,
    /** The line's subject, e.g. "mallory@room: dropped data packets". */
    private readonly subject: () => string,
    private readonly intervalMs = 1000,
    /** Reasons told apart in one line; the rest count as "other". */
    private readonly maxReasons = 8,
  ) {}

  count(reason: string) {
    if (!this.timer) {
      this.log(`${this.subject()} (1 ${reason})`);
      this.startInterval();
      return;
    }
    const key = this.counts.has(reason) || this.counts.size < this.maxReasons ? reason : 'other';
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  private startInterval() {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.counts.size) return;
      const counts = [...this.counts].map(([why, n]) => `${n} ${why}`).join(', ');
      this.counts = new Map();
      this.log(`${this.subject()} (${counts})`);
      this.startInterval(); // a flood still going on is summed up again an interval later
    }, this.intervalMs);
    this.timer.unref();
  }
}

/** Refills `perSecond` up to `burst`; `take` spends `cost` if that much is there. */
export class TokenBucket {
  private tokens: number;
  private refilledAt = performance.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Whether `cost` fits now (spending it), after refilling for the time since the last call. */
  take(cost: number) {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
