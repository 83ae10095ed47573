/**
 * A transcript's segments in the formats people use: WebVTT (speakers as voice spans, what
 * players and caption editors read), SubRip (SRT, the speaker's name before the text), and plain
 * text (a line per segment with its time). Cues are in the order of their start; a cue's end is
 * after its start (the formats require it), so a segment a provider timed as an instant lasts 1 ms.
 */
export interface SpeakerSegment {
  /** Seconds from the transcript's start. */
  start: number;
  end: number;
  text: string;
  /** The speaker's display name; null when the transcript has no speakers (a composite recording). */
  speaker: string | null;
}

export const TRANSCRIPT_FORMATS = {
  json: { contentType: 'application/json', extension: 'json' },
  vtt: { contentType: 'text/vtt; charset=utf-8', extension: 'vtt' },
  srt: { contentType: 'application/x-subrip; charset=utf-8', extension: 'srt' },
  txt: { contentType: 'text/plain; charset=utf-8', extension: 'txt' },
} as const;
export type TranscriptFormat = keyof typeof TRANSCRIPT_FORMATS;

/** The format an Accept header asks for, by the first media type it names that we make. */
export function formatFromAccept(accept: string | null): TranscriptFormat {
  const types = (accept ?? '')
    .split(',')
    .map((part) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.split('=')[1] ?? 1);
      return { type: type.trim(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { type } of types) {
    if (type === 'text/vtt') return 'vtt';
    if (type === 'application/x-subrip' || type === 'text/srt') return 'srt';
    if (type === 'text/plain') return 'txt';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'json';
  }
  return 'json';
}

function ordered(segments: SpeakerSegment[]) {
  return segments
    .filter((s) => s.text.trim())
    .map((s) => ({ ...s, text: s.text.trim(), end: Math.max(s.end, s.start + 0.001) }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

/** hh:mm:ss.mmm (WebVTT) or hh:mm:ss,mmm (SRT). */
function timestamp(seconds: number, separator: '.' | ',') {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** Text as WebVTT cue text: &, < and > would start markup. */
const vttText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A cue's text may not hold a blank line (it would end the cue) nor, in WebVTT, the arrow. */
const oneBlock = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/-->/g, '->');

export function toWebVtt(segments: SpeakerSegment[]): string {
  const cues = ordered(segments).map((s, i) => {
    const body = vttText(oneBlock(s.text));
    const voice = s.speaker ? `<v ${vttText(oneBlock(s.speaker))}>${body}</v>` : body;
    return `${i + 1}\n${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${voice}`;
  });
  return `WEBVTT\n\n${cues.map((c) => `${c}\n`).join('\n')}`;
}

export function toSrt(segments: SpeakerSegment[]): string {
  return ordered(segments)
    .map((s, i) => {
      const text = oneBlock(s.text);
      return `${i + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${s.speaker ? `${oneBlock(s.speaker)}: ${text}` : text}\n`;
    })
    .join('\n');
}

export function toPlainText(segments: SpeakerSegment[]): string {
  return ordered(segments)
    .map(
      (s) =>
        `[${timestamp(s.start, '.').slice(0, 8)}] ${s.speaker ? `${oneBlock(s.speaker)}: ` : ''}${oneBlock(s.text)}\n`,
    )
    .join('');
}

/** The segments as lines "Name: text" for a language model (no times: they cost tokens and say little). */
export function dialogueLines(segments: SpeakerSegment[]): string[] {
  const lines: string[] = [];
  for (const s of ordered(segments)) {
    const who = s.speaker ?? 'Speaker';
    const last = lines.at(-1);
    // One speaker's consecutive segments are one turn.
    if (last?.startsWith(`${who}: `)) lines[lines.length - 1] = `${last} ${oneBlock(s.text)}`;
    else lines.push(`${who}: ${oneBlock(s.text)}`);
  }
  return lines;
}

/** A stored segment (Transcript.segments): the formats' segment plus who spoke, when known. */
export interface StoredSegment extends SpeakerSegment {
  participantId?: string | null;
  externalUserId?: string | null;
}
