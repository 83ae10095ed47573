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
  readonly model: string;
  transcribe(
    audio: Uint8Array<ArrayBuffer>,
    opts: { filename: string; contentType: string; language?: string | null; signal?: AbortSignal },
  ): Promise<{ text: string; segments: TranscriptSegment[]; language: string | null }>;
}

export interface SpeechToTextSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** How long one request may take (default 10 minutes). */
  timeoutMs?: number;
}

export function createSpeechToText({
  baseUrl,
  apiKey,
  model,
  timeoutMs = 10 * 60_000,
}: SpeechToTextSettings): SpeechToText {
  // Both spellings are in use (`https://api.openai.com` and the OpenAI SDK's `…/v1`): accept either.
  const endpoint = `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/audio/transcriptions`;
  return {
    name: new URL(endpoint).host,
    model,
    async transcribe(audio, opts) {
      const form = new FormData();
      form.set('file', new Blob([audio], { type: opts.contentType }), opts.filename);
      form.set('model', model);
      form.set('response_format', 'verbose_json');
      // The API takes ISO 639-1 ("en"), not a full BCP 47 tag ("en-US").
      if (opts.language) form.set('language', opts.language.split('-')[0].toLowerCase());
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          body: form,
          signal: opts.signal ?? AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if ((err as Error).name === 'TimeoutError')
          throw new ProviderError(`the speech-to-text service did not answer within ${Math.round(timeoutMs / 1000)} s`);
        throw new ProviderError(`the speech-to-text service could not be reached: ${(err as Error).message}`);
      }
      if (!res.ok)
        throw new ProviderError(
          `speech-to-text answered ${res.status}: ${providerReason(await res.text())}`,
          transientStatus(res.status),
        );
      try {
        return parseVerboseJson(await res.json());
      } catch (err) {
        throw new ProviderError((err as Error).message, false);
      }
    },
  };
}

/**
 * A provider's failure, with whether trying again later may succeed: a timeout, an unreachable
 * service, 408, 409, 429 and 5xx may; any other refusal (a bad key, a file it rejects) would be
 * refused again.
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    readonly retryable = true,
  ) {
    super(message);
  }
}

export const transientStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** An OpenAI-style error body's message (`{error: {message}}`), else the start of the body. */
export function providerReason(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return body.slice(0, 200);
}

/** The verbose_json answer, reduced to what Convene keeps; a server that sends no segments gives one. */
function parseVerboseJson(body: unknown): { text: string; segments: TranscriptSegment[]; language: string | null } {
  const { text, segments, duration, language } = (body ?? {}) as {
    text?: unknown;
    segments?: unknown;
    duration?: unknown;
    language?: unknown;
  };
  if (typeof text !== 'string') throw new Error('speech-to-text answered without a text');
  // verbose_json names the language it heard ("english"; some servers "en").
  const heard = typeof language === 'string' && language ? language : null;
  if (!Array.isArray(segments)) {
    const end = typeof duration === 'number' ? duration : 0;
    return { text: text.trim(), segments: text.trim() ? [{ start: 0, end, text: text.trim() }] : [], language: heard };
  }
  return {
    text: text.trim(),
    language: heard,
    segments: segments.map((s: { start?: unknown; end?: unknown; text?: unknown }) => {
      if (typeof s?.start !== 'number' || typeof s.end !== 'number' || typeof s.text !== 'string')
        throw new Error('speech-to-text answered a segment without start, end and text');
      return { start: s.start, end: s.end, text: s.text.trim() };
    }),
  };
}

/** The provider configured for this process (STT_BASE_URL), or null. */
export function speechToText(): SpeechToText | null {
  const { STT_BASE_URL, STT_API_KEY, STT_MODEL, STT_TIMEOUT_SECONDS } = config();
  if (!STT_BASE_URL) return null;
  return createSpeechToText({
    baseUrl: STT_BASE_URL,
    apiKey: STT_API_KEY,
    model: STT_MODEL,
    timeoutMs: STT_TIMEOUT_SECONDS * 1000,
  });
}
