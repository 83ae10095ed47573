/**
 * A local OpenAI-compatible server for the meeting-notes tests, checking what it is sent as the
 * real API does and answering in its formats:
 *
 * - `POST /v1/audio/transcriptions` (multipart): the key, `model` (one it serves), `file` (a name
 *   with an extension the API takes: flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg, wav, webm; at most
 *   `maxUploadBytes`, 413 past it; audio that decodes), `response_format` (json, text, srt, vtt or
 *   verbose_json), `language` (ISO 639-1). It "recognises" the test voices (voices.ts): each stretch
 *   of speech is answered with the phrase of the voice heard in it, timed where it is heard, as
 *   verbose_json segments (id, seek, start, end, text, tokens, temperature, avg_logprob,
 *   compression_ratio, no_speech_prob).
 * - `POST /v1/chat/completions` (JSON): the key, `model`, `messages` (roles and string contents),
 *   `response_format: json_object` only with "json" in the messages (the API's rule), and the
 *   request within the model's context (`contextTokens`, prompt plus max_tokens; 400
 *   context_length_exceeded past it). The answer is the test's canned JSON object.
 *
 * Faults on demand: an error status for the next requests, or an answer held back past the
 * client's timeout.
 */
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeAudio, phraseOf, recognise, type HeardSegment } from './voices';
import { ffmpegBin } from '../../support/media-probe';

export const AUDIO_EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];

export interface TranscriptionRequest {
  at: number;
  authorization: string | undefined;
  model: string;
  responseFormat: string;
  language: string | null;
  filename: string;
  contentType: string;
  bytes: number;
  /** The seconds of audio it decoded to, and what was heard. */
  seconds: number;
  heard: HeardSegment[];
  status: number;
}

export interface ChatRequest {
  at: number;
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    max_tokens?: number;
    response_format?: { type: string };
    temperature?: number;
  };
  promptTokens: number;
  status: number;
}

/** Which requests a fault or a delay applies to (by default, any). */
type Matcher = (request: { chat?: ChatRequest['body'] }) => boolean;

interface Fault {
  status: number;
  message: string;
  times: number;
  when: Matcher;
}

export interface OpenAiStub {
  baseUrl: string;
  transcriptions: TranscriptionRequest[];
  chats: ChatRequest[];
  /** The next `times` requests to `which` (that `when` matches) are answered `status` with an OpenAI-style error. */
  fail(
    which: 'transcriptions' | 'chat',
    status: number,
    message: string,
    opts?: { times?: number; when?: Matcher },
  ): void;
  /** The next `times` requests to `which` (that `when` matches) are answered only after `ms`. */
  delay(which: 'transcriptions' | 'chat', ms: number, opts?: { times?: number; when?: Matcher }): void;
  /** The chat answer's JSON object for a request (default: a canned summary). */
  answerChat: (request: ChatRequest['body']) => Record<string, unknown>;
  close(): Promise<void>;
}

export const CANNED_SUMMARY = {
  overview: 'The team agreed the apples and the fox.',
  decisions: ['Keep seven green apples on the table.'],
  actionItems: [{ text: 'Buy more apples', owner: 'Ada' }],
  openQuestions: ['Does the fox jump?'],
};

/** Tokens as the stub counts them: about four characters each, as OpenAI's guidance says. */
export const stubTokens = (text: string) => Math.ceil(text.length / 4);

export async function startOpenAiStub({
  apiKey,
  transcriptionModels = ['whisper-1'],
  chatModels = ['gpt-4o-mini'],
  maxUploadBytes = 25 * 1024 * 1024,
  contextTokens = 128_000,
}: {
  apiKey?: string;
  transcriptionModels?: string[];
  chatModels?: string[];
  maxUploadBytes?: number;
  contextTokens?: number;
} = {}): Promise<OpenAiStub> {
  const transcriptions: TranscriptionRequest[] = [];
  const chats: ChatRequest[] = [];
  const faults: Record<'transcriptions' | 'chat', Fault[]> = { transcriptions: [], chat: [] };
  const delays: Record<'transcriptions' | 'chat', { ms: number; times: number; when: Matcher }[]> = {
    transcriptions: [],
    chat: [],
  };
  const sockets = new Set<import('node:net').Socket>();

  const error = (
    res: http.ServerResponse,
    status: number,
    message: string,
    code: string | null = null,
    type = 'invalid_request_error',
  ) =>
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message, type, param: null, code } }));

  const take = <T extends { times: number; when: Matcher }>(
    list: T[],
    request: { chat?: ChatRequest['body'] } = {},
  ) => {
    const i = list.findIndex((f) => f.when(request));
    if (i < 0) return undefined;
    const found = list[i];
    if (--found.times <= 0) list.splice(i, 1);
    return found;
  };

  async function transcribe(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    const record: TranscriptionRequest = {
      at: Date.now(),
      authorization: req.headers.authorization,
      model: '',
      responseFormat: '',
      language: null,
      filename: '',
      contentType: '',
      bytes: 0,
      seconds: 0,
      heard: [],
      status: 200,
    };
    transcriptions.push(record);
    const reply = (status: number, message: string, code?: string) => {
      record.status = status;
      error(res, status, message, code ?? null);
    };
    if (!(req.headers['content-type'] ?? '').startsWith('multipart/form-data'))
      return reply(400, 'Content-Type must be multipart/form-data');
    let form: FormData;
    try {
      form = await new Request('http://stub', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type']! },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      return reply(400, 'Could not parse multipart form');
    }
    const file = form.get('file');
    const model = form.get('model');
    record.model = typeof model === 'string' ? model : '';
    record.responseFormat = String(form.get('response_format') ?? 'json');
    record.language = (form.get('language') as string | null) ?? null;
    if (!(file instanceof File)) return reply(400, "you must provide a 'file' field");
    record.filename = file.name;
    record.contentType = file.type;
    record.bytes = file.size;
    if (!record.model) return reply(400, 'you must provide a model parameter');
    if (!transcriptionModels.includes(record.model))
      return reply(
        404,
        `The model \`${record.model}\` does not exist or you do not have access to it.`,
        'model_not_found',
      );
    if (file.size > maxUploadBytes)
      return reply(413, `Maximum content size limit (${maxUploadBytes}) exceeded (${file.size} bytes read)`);
    const extension = path.extname(file.name).slice(1).toLowerCase();
    if (!AUDIO_EXTENSIONS.includes(extension))
      return reply(400, `Invalid file format. Supported formats: ${JSON.stringify(AUDIO_EXTENSIONS)}`);
    if (!['json', 'text', 'srt', 'verbose_json', 'vtt'].includes(record.responseFormat))
      return reply(
        400,
        `'${record.responseFormat}' is not one of ['json', 'text', 'srt', 'verbose_json', 'vtt'] - 'response_format'`,
      );
    if (record.language !== null && !/^[a-z]{2}$/.test(record.language))
      return reply(
        400,
        `Invalid language '${record.language}'. Language parameter must be specified in ISO-639-1 format.`,
      );
    const fault = take(faults.transcriptions);
    if (fault) return reply(fault.status, fault.message);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'convene-stub-'));
    let samples: Float32Array | null;
    try {
      const input = path.join(dir, `upload.${extension}`);
      writeFileSync(input, Buffer.from(await file.arrayBuffer()));
      samples = decodeAudio(ffmpegBin, input);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (!samples) return reply(400, 'Audio file could not be decoded or its format is not supported.');
    record.seconds = samples.length / 16_000;
    record.heard = recognise(samples);
    const segments = record.heard.map((s, id) => ({
      id,
      seek: 0,
      start: s.start,
      end: s.end,
      text: ` ${phraseOf(s)}`,
      tokens: [50364, 1, 2, 3],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.1,
      no_speech_prob: 0.01,
    }));
    const text = segments.map((s) => s.text).join('');
    const held = take(delays.transcriptions);
    if (held) await new Promise((r) => setTimeout(r, held.ms));
    if (res.destroyed) return;
    if (record.responseFormat === 'verbose_json')
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ task: 'transcribe', language: 'english', duration: record.seconds, text, segments }));
    else if (record.responseFormat === 'json')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  }

  async function chat(req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse) {
    const record: ChatRequest = {
      at: Date.now(),
      authorization: req.headers.authorization,
      body: { model: '', messages: [] },
      promptTokens: 0,
      status: 200,
    };
    chats.push(record);
    const reply = (status: number, message: string, code?: string) => {
      record.status = status;
      error(res, status, message, code ?? null);
    };
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return reply(400, 'Content-Type must be application/json');
    let body: ChatRequest['body'];
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return reply(400, 'We could not parse the JSON body of your request.');
    }
    record.body = body;
    if (typeof body.model !== 'string' || !body.model) return reply(400, 'you must provide a model parameter');
    if (!chatModels.includes(body.model))
      return reply(
        404,
        `The model \`${body.model}\` does not exist or you do not have access to it.`,
        'model_not_found',
      );
    if (!Array.isArray(body.messages) || !body.messages.length) return reply(400, "[] is too short - 'messages'");
    for (const m of body.messages)
      if (!['system', 'user', 'assistant', 'developer'].includes(m?.role) || typeof m.content !== 'string')
        return reply(400, "Invalid 'messages': each needs a role and a string content.");
    if (body.response_format?.type === 'json_object' && !body.messages.some((m) => /json/i.test(m.content)))
      return reply(
        400,
        "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
      );
    record.promptTokens = body.messages.reduce((sum, m) => sum + stubTokens(m.content) + 4, 0);
    const requested = record.promptTokens + (body.max_tokens ?? 0);
    if (requested > contextTokens)
      return reply(
        400,
        `This model's maximum context length is ${contextTokens} tokens. However, you requested ${requested} tokens (${record.promptTokens} in the messages, ${body.max_tokens ?? 0} in the completion). Please reduce the length of the messages or completion.`,
        'context_length_exceeded',
      );
    const fault = take(faults.chat, { chat: body });
    if (fault) return reply(fault.status, fault.message);
    const held = take(delays.chat, { chat: body });
    if (held) await new Promise((r) => setTimeout(r, held.ms));
    if (res.destroyed) return;
    const content = JSON.stringify(stub.answerChat(body));
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${chats.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: record.promptTokens,
          completion_tokens: stubTokens(content),
          total_tokens: record.promptTokens + stubTokens(content),
        },
      }),
    );
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      // The body is read whole up to the limit and a margin (a real API stops reading past it).
      if (size <= maxUploadBytes + 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
        error(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
        return;
      }
      const handle =
        req.method === 'POST' && req.url === '/v1/audio/transcriptions'
          ? transcribe(req, body, res)
          : req.method === 'POST' && req.url === '/v1/chat/completions'
            ? chat(req, body, res)
            : Promise.resolve(void error(res, 404, `Invalid URL (${req.method} ${req.url})`));
      handle.catch((err: Error) => {
        if (!res.headersSent) error(res, 500, `The server had an error: ${err.message}`, null, 'server_error');
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const stub: OpenAiStub = {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    transcriptions,
    chats,
    fail(which, status, message, { times = 1, when = () => true } = {}) {
      faults[which].push({ status, message, times, when });
    },
    delay(which, ms, { times = 1, when = () => true } = {}) {
      delays[which].push({ ms, times, when });
    },
    answerChat: () => CANNED_SUMMARY,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
  return stub;
}
