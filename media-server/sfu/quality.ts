/**
 * Connection quality from what a publisher's packets show on arrival, as LiveKit rates it in its
 * ConnectionQualityUpdate: packet loss (gaps in the sequence numbers) and interarrival jitter
 * (RFC 3550, 6.4.1), measured per track over the interval between two ratings.
 */
import { ConnectionQuality } from '@livekit/protocol';

/** What one track's packets showed since the last `take`. */
export interface IntervalStats {
  expected: number;
  received: number;
  /** Interarrival jitter at the end of the interval, in milliseconds. */
  jitterMs: number;
}

export class ArrivalMeter {
  private received = 0;
  private highest?: number;
  private startedAt?: number;
  private jitter = 0;
  private last?: { arrival: number; timestamp: number };

  constructor(private readonly clockRate: number) {}

  /** One packet: its 16-bit sequence number and RTP timestamp, and when it arrived (ms). */
  record(sequenceNumber: number, timestamp: number, arrivalMs = performance.now()) {
    this.received++;
    if (this.highest === undefined) {
      this.highest = sequenceNumber;
      this.startedAt = sequenceNumber;
    } else {
      // Unwrapped against the highest so far: a later packet is at most half the space ahead.
      const delta = ((sequenceNumber - this.highest + 0x8000) & 0xffff) - 0x8000;
      if (delta > 0) this.highest += delta;
    }
    const arrival = (arrivalMs * this.clockRate) / 1000;
    if (this.last) {
      const d = Math.abs(arrival - this.last.arrival - (timestamp - this.last.timestamp));
      // A timestamp jump (a new source, a long pause) is not jitter.
      if (d < this.clockRate) this.jitter += (d - this.jitter) / 16;
    }
    this.last = { arrival, timestamp };
  }

  /** Counts since the last call (undefined if no packet came), then starts a new interval. */
  take(): IntervalStats | undefined {
    if (this.highest === undefined || this.startedAt === undefined || this.received === 0) return undefined;
    const stats = {
      expected: this.highest - this.startedAt + 1,
      received: this.received,
      jitterMs: (this.jitter * 1000) / this.clockRate,
    };
    this.startedAt = this.highest + 1;
    this.received = 0;
    return stats;
  }
}

/**
 * A rating from one interval's worst track: EXCELLENT unless loss or jitter shows (LiveKit's
 * thresholds are near these: a few per cent of loss is GOOD, more is POOR). No media: EXCELLENT,
 * as on LiveKit for a participant that only listens.
 */
export function rateConnection(intervals: (IntervalStats | undefined)[]): ConnectionQuality {
  let quality = ConnectionQuality.EXCELLENT;
  for (const s of intervals) {
    if (!s || s.expected <= 0) continue;
    const loss = Math.max(0, s.expected - s.received) / s.expected;
    const rated =
      loss > 0.1 || s.jitterMs > 100
        ? ConnectionQuality.POOR
        : loss > 0.02 || s.jitterMs > 30
          ? ConnectionQuality.GOOD
          : ConnectionQuality.EXCELLENT;
    if (rated < quality) quality = rated;
  }
  return quality;
}
