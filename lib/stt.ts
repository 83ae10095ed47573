import { config } from '@/lib/config';

/**
 * Speech to text behind one interface. The HTTP provider POSTs the audio file to STT_URL
 * (Authorization: Bearer STT_API_KEY, the file's content type, ?language=) and expects
 * `{ text, segments: [{ start, end, text, speaker? }] }` back — the shape of a Whisper-style
 * transcription server.
 */
interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

interface SpeechToText {
  readonly name: string;
  transcribe(
    audio: Buffer,
    opts: { contentType: string; language?: string | null },
  ): Promise<{ text: string; segments: TranscriptSegment[] }>;
}

export function speechToText(): SpeechToText | null {
  const { STT_URL, STT_API_KEY } = config();
  if (!STT_URL) return null;
  return {
    name: new URL(STT_URL).host,
    async transcribe(audio, opts) {
      const url = new URL(STT_URL);
      if (opts.language) url.searchParams.set('language', opts.language);
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': opts.contentType,
          ...(STT_API_KEY ? { authorization: `Bearer ${STT_API_KEY}` } : {}),
        },
        body: new Uint8Array(audio),
        signal: AbortSignal.timeout(10 * 60_000),
      });
      if (!res.ok) throw new Error(`speech-to-text answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const body = (await res.json()) as { text?: unknown; segments?: unknown };
      if (typeof body.text !== 'string' || !Array.isArray(body.segments))
        throw new Error('speech-to-text answered an unexpected shape');
      return { text: body.text, segments: body.segments as TranscriptSegment[] };
    },
  };
}
