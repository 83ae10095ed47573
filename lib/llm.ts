import { config } from '@/lib/config';
import { ProviderError, providerReason, transientStatus } from '@/lib/stt';

/**
 * A language model through the OpenAI-compatible chat-completions API — served by OpenAI, Groq,
 * llama.cpp's server, vLLM, Ollama and others: `POST {baseUrl}/v1/chat/completions` with
 * `{model, messages, temperature, response_format: {type: 'json_object'}}`, `Authorization:
 * Bearer <key>`; the answer is `choices[0].message.content`. Used by meeting summaries.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LanguageModel {
  readonly name: string;
  readonly model: string;
  /** The model's context window in tokens: what one request (messages and answer) must fit in. */
  readonly contextTokens: number;
  /** The model's answer, parsed as the JSON object it was asked for. */
  completeJson(messages: ChatMessage[], opts?: { maxTokens?: number }): Promise<Record<string, unknown>>;
}

export interface LanguageModelSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  contextTokens: number;
  timeoutMs: number;
}

export function createLanguageModel({
  baseUrl,
  apiKey,
  model,
  contextTokens,
  timeoutMs,
}: LanguageModelSettings): LanguageModel {
  // As for speech to text: `https://api.openai.com` and `…/v1` both work.
  const endpoint = `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/chat/completions`;
  return {
    name: new URL(endpoint).host,
    model,
    contextTokens,
    async completeJson(messages, opts = {}) {
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify({
            model,
            messages,
            temperature: 0.2,
            ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
            response_format: { type: 'json_object' },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if ((err as Error).name === 'TimeoutError')
          throw new ProviderError(`the language model did not answer within ${Math.round(timeoutMs / 1000)} s`);
        throw new ProviderError(`the language model could not be reached: ${(err as Error).message}`);
      }
      if (!res.ok)
        throw new ProviderError(
          `the language model answered ${res.status}: ${providerReason(await res.text())}`,
          transientStatus(res.status),
        );
      const body = (await res.json().catch(() => null)) as {
        choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
      } | null;
      const choice = body?.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string') throw new ProviderError('the language model answered without a message');
      if (choice?.finish_reason === 'length')
        throw new ProviderError('the language model ran out of room before it finished', false);
      return parseJsonObject(content);
    },
  };
}

/** The JSON object in a model's answer (some wrap it in a Markdown code fence despite being asked not to). */
function parseJsonObject(content: string): Record<string, unknown> {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content)?.[1];
  try {
    const value = JSON.parse((fenced ?? content).trim()) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  // Sampling differs from one try to the next: another may answer as asked.
  throw new ProviderError('the language model answered something other than the JSON object asked for');
}

/** Roughly how many tokens a text takes: about four characters each for English; less room is safer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/** The model configured for this process (LLM_BASE_URL), or null. */
export function languageModel(): LanguageModel | null {
  const { LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_CONTEXT_TOKENS, LLM_TIMEOUT_SECONDS } = config();
  if (!LLM_BASE_URL) return null;
  return createLanguageModel({
    baseUrl: LLM_BASE_URL,
    apiKey: LLM_API_KEY,
    model: LLM_MODEL,
    contextTokens: LLM_CONTEXT_TOKENS,
    timeoutMs: LLM_TIMEOUT_SECONDS * 1000,
  });
}
