/**
 * A local OpenAI-compatible speech-to-text server for tests: `POST /v1/audio/transcriptions`
 * (multipart) answers a fixed text as verbose_json, and records every request it was sent.
 */
import http from 'node:http';

export interface SttRequest {
  /** When the request arrived (ms since the epoch). */
  at: number;
  path: string;
  authorization: string | undefined;
  model: string | null;
  responseFormat: string | null;
  language: string | null;
  filename: string;
  contentType: string;
  audio: Buffer;
}

export interface SttServer {
  baseUrl: string;
  received: SttRequest[];
  /** The next request is answered with this status and an OpenAI-style error. */
  failNext(status: number, message: string): void;
  close(): Promise<void>;
}

export async function startSttServer(text = 'hello world'): Promise<SttServer> {
  const received: SttRequest[] = [];
  let failure: { status: number; message: string } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const form = await new Request('http://stt', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData();
      const file = form.get('file') as File;
      received.push({
        at: Date.now(),
        path: req.url,
        authorization: req.headers.authorization,
        model: form.get('model') as string | null,
        responseFormat: form.get('response_format') as string | null,
        language: form.get('language') as string | null,
        filename: file.name,
        contentType: file.type,
        audio: Buffer.from(await file.arrayBuffer()),
      });
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: failure }));
        failure = undefined;
        return;
      }
      const segment = { id: 0, seek: 0, start: 0, end: 1.5, text: ` ${text}`, tokens: [1], temperature: 0 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          task: 'transcribe',
          language: 'english',
          duration: 1.5,
          text: ` ${text}`,
          segments: [segment],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    failNext(status, message) {
      failure = { status, message };
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
