import { config } from '@/lib/config';

/**
 * Speech to text through the OpenAI-compatible transcription API — the de facto standard served
 * by OpenAI, Groq, whisper.cpp's server, faster-whisper-server and others:
 * `POST {baseUrl}/v1/audio/transcriptions`, multipart (`file`, `model`, `response_format=verbose_json`,
 * `language`?), `Authorization: Bearer <key>`; the answer's `segments` carry start/end seconds.
 * Used by the transcript job (recordings) and the captions worker (speech segments as WAV).
 */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface SpeechToText {
  readonly name: string;
  transcribe(
    audio: Uint8Array<ArrayBuffer>,
    opts: { filename: string; contentType: string; language?: string | null; signal?: AbortSignal },
  ): Promise<{ text: string; segments: TranscriptSegment[] }>;
}

export interface SpeechToTextSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

export function createSpeechToText({ baseUrl, apiKey, model }: SpeechToTextSettings): SpeechToText {
  // Both spellings are in use (`https://api.openai.com` and the OpenAI SDK's `…/v1`): accept either.
  const endpoint = `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/audio/transcriptions`;
  return {
    name: new URL(endpoint).host,
    async transcribe(audio, opts) {
      const form = new FormData();
      form.set('file', new Blob([audio], { type: opts.contentType }), opts.filename);
      form.set('model', model);
      form.set('response_format', 'verbose_json');
      // The API takes ISO 639-1 ("en"), not a full BCP 47 tag ("en-US").
      if (opts.language) form.set('language', opts.language.split('-')[0].toLowerCase());
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        body: form,
        signal: opts.signal ?? AbortSignal.timeout(10 * 60_000),
      });
      if (!res.ok) throw new Error(`speech-to-text answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      return parseVerboseJson(await res.json());
    },
  };
}

/** The verbose_json answer, reduced to what Convene keeps; a server that sends no segments gives one. */
function parseVerboseJson(body: unknown): { text: string; segments: TranscriptSegment[] } {
  const { text, segments, duration } = (body ?? {}) as { text?: unknown; segments?: unknown; duration?: unknown };
  if (typeof text !== 'string') throw new Error('speech-to-text answered without a text');
  if (!Array.isArray(segments)) {
    const end = typeof duration === 'number' ? duration : 0;
    return { text: text.trim(), segments: text.trim() ? [{ start: 0, end, text: text.trim() }] : [] };
  }
  return {
    text: text.trim(),
    segments: segments.map((s: { start?: unknown; end?: unknown; text?: unknown }) => {
      if (typeof s?.start !== 'number' || typeof s.end !== 'number' || typeof s.text !== 'string')
        throw new Error('speech-to-text answered a segment without start, end and text');
      return { start: s.start, end: s.end, text: s.text.trim() };
    }),
  };
}

/** The provider configured for this process (STT_BASE_URL), or null. */
export function speechToText(): SpeechToText | null {
  const { STT_BASE_URL, STT_API_KEY, STT_MODEL } = config();
  if (!STT_BASE_URL) return null;
  return createSpeechToText({ baseUrl: STT_BASE_URL, apiKey: STT_API_KEY, model: STT_MODEL });
}
