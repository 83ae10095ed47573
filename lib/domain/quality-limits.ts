/**
 * The bounds of call-quality telemetry, shared by the hosted call UI (what it sends) and the API
 * (what it accepts). No imports: the call page's bundle reads these.
 */
/** How often the call samples its WebRTC statistics. */
export const QUALITY_SAMPLE_INTERVAL_MS = 10_000;
/**
 * How often the call sends what it sampled (six samples in one report): a request every 60 s
 * instead of every 10 s costs the app a sixth (docs/performance.md, "Call-quality telemetry"). The
 * first sample goes at once (the live room view sees a person early); a sample that shows trouble
 * (loss, a held-back encoder, a long round trip, a reconnection), and the first calm one after
 * trouble, go at once with those before them; what waits goes when the person leaves.
 */
export const QUALITY_REPORT_INTERVAL_MS = 60_000;
/** Samples one report may carry (the call sends six; a few more after a failed send). */
export const MAX_SAMPLES_PER_REPORT = 9;
/** Tracks one sample may describe (the call sends its own and the busiest it receives). */
export const MAX_TRACKS_PER_SAMPLE = 24;
/** How old a sample or event may be when reported. */
export const MAX_REPORT_AGE_MS = 120_000;
/** A report's body, at most (six samples of 24 tracks are about 22 KB). */
export const QUALITY_REPORT_MAX_BYTES = 32 * 1024;
/** Samples kept per participant per session: 12 hours at one per 10 s. */
export const QUALITY_SAMPLES_PER_SERIES = 4320;
/** Reports per participant per window (the call sends one per 60 s, or one per 10 s in trouble, and one as it leaves). */
export const QUALITY_REPORTS_PER_WINDOW = 4;
export const QUALITY_REPORT_WINDOW_SECONDS = 30;
/** How long after leaving a participant's last report (what waited when they left) is still filed. */
export const QUALITY_REPORT_AFTER_LEAVING_MS = 30_000;
