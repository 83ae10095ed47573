import type { components, webhooks } from './generated/openapi.js';

/**
 * Webhook verification with Web Crypto only (no node: imports): Node 20+, Deno, Bun, Cloudflare
 * Workers, Vercel/Next.js edge. The scheme (API reference `webhooks` section, docs/webhooks.md):
 * `x-webhook-signature: sha256=<hex>` = HMAC-SHA256 with the webhook secret over
 * `<x-webhook-timestamp>.<raw body>`; during a secret rotation several comma-separated values.
 */

/** Every event name in the catalogue. */
export type WebhookEventName = keyof webhooks & string;

type Envelope<N extends WebhookEventName> = NonNullable<
  NonNullable<webhooks[N]['post']>['requestBody']
>['content']['application/json'];

/** The delivered envelope of event N: `{ version: 2, id, event: N, occurredAt, data }` with N's data type. */
export type WebhookEventOf<N extends WebhookEventName> = Envelope<N>;

/** A verified delivery: a union discriminated on `event` (narrow with `switch (event.event)`). */
export type WebhookEvent = { [N in WebhookEventName]: Envelope<N> }[WebhookEventName];

/** The data of event N. */
export type WebhookEventData<N extends WebhookEventName> = Envelope<N>['data'];

/** The data every synthetic delivery from POST /api/v1/webhooks/test carries, whatever its event name. */
export type WebhookTestData = components['schemas']['WebhookTestEventData'];

/**
 * True for a synthetic delivery from `POST /api/v1/webhooks/test`: sent under the name you asked
 * for (e.g. `room.finished`) but carrying `{ test: true, message }` as data. Check it before
 * handling `data` as the event's own shape.
 */
export function isTestDelivery(event: WebhookEvent): event is WebhookEvent & { data: WebhookTestData } {
  return (event.data as { test?: unknown }).test === true;
}

export type WebhookVerificationErrorCode =
  | 'MISSING_HEADER'
  | 'INVALID_HEADER'
  | 'SIGNATURE_MISMATCH'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'INVALID_PAYLOAD';

/** Every verification failure; answer the delivery 400 (or 401) and do not process it. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A required x-webhook-* header is absent (not a Convene delivery, or a proxy dropped it). */
export class WebhookMissingHeaderError extends WebhookVerificationError {
  override name = 'WebhookMissingHeaderError';
  constructor(readonly header: string) {
    super(
      'MISSING_HEADER',
      `the ${header} header is missing: this request is not a Convene webhook delivery (or a proxy removed the header)`,
    );
  }
}

/** No signature matches any of the secrets: wrong secret, a modified body, or a forgery. */
export class WebhookSignatureError extends WebhookVerificationError {
  override name = 'WebhookSignatureError';
  constructor(message: string, code: 'SIGNATURE_MISMATCH' | 'INVALID_HEADER' = 'SIGNATURE_MISMATCH') {
    super(code, message);
  }
}

/** The signed timestamp is outside the tolerance: too old (a replayed capture, or a late retry) or in the future. */
export class WebhookTimestampError extends WebhookVerificationError {
  override name = 'WebhookTimestampError';
  constructor(
    message: string,
    readonly timestamp: string,
    readonly ageSeconds: number,
  ) {
    super('TIMESTAMP_OUT_OF_TOLERANCE', message);
  }
}

/** The signed body is not a v2 envelope agreeing with its headers. */
export class WebhookPayloadError extends WebhookVerificationError {
  override name = 'WebhookPayloadError';
  constructor(message: string) {
    super('INVALID_PAYLOAD', message);
  }
}

/** Fetch `Headers`, or a plain object such as Node's `req.headers` / Express (any case, string or string[]). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined | null>;

export interface VerifyWebhookOptions {
  /**
   * How far the signed timestamp may be from now, in seconds (default 900 = 15 minutes).
   * `x-webhook-timestamp` is the event's occurredAt, so a late retry or a replay you asked for
   * can be older: widen it (or pass Infinity) for those, and dedupe on the event id.
   */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date | number;
}

export const DEFAULT_TOLERANCE_SECONDS = 15 * 60;

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined | null>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

function required(headers: WebhookHeaders, name: string): string {
  const value = header(headers, name)?.trim();
  if (!value) throw new WebhookMissingHeaderError(name);
  return value;
}

function toBytes(body: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Compares in time independent of where the bytes differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

async function hmacSha256(secret: string, message: Uint8Array): Promise<Uint8Array> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, message as Uint8Array<ArrayBuffer>));
}

/**
 * Verifies a Convene webhook delivery and returns its typed event.
 *
 * @param rawBody the request body exactly as received (string or bytes), before any JSON parsing
 * @param headers the request headers
 * @param secrets your webhook secret (`whsec_…`), or several during a rotation (any may match)
 * @throws WebhookMissingHeaderError, WebhookSignatureError, WebhookTimestampError, WebhookPayloadError
 *   (all WebhookVerificationError, with a `code`)
 *
 * Deliveries are at least once: retries and replays carry the same `event.id` (= x-webhook-id).
 * Record the ids you processed (a unique column in your database) and acknowledge a duplicate
 * with 2xx without processing it again.
 */
export async function verifyWebhook(
  rawBody: string | ArrayBuffer | ArrayBufferView,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const secretList = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter(
    (s) => typeof s === 'string' && s.length > 0,
  );
  if (secretList.length === 0)
    throw new TypeError('verifyWebhook: pass your webhook secret (whsec_…), or several during a rotation');

  const signatureHeader = required(headers, 'x-webhook-signature');
  const timestamp = required(headers, 'x-webhook-timestamp');
  const id = required(headers, 'x-webhook-id');
  const eventName = required(headers, 'x-webhook-event');

  const signatures: Uint8Array[] = [];
  for (const part of signatureHeader.split(',')) {
    const m = /^sha256=([0-9a-fA-F]{64})$/.exec(part.trim());
    if (m) signatures.push(hexToBytes(m[1].toLowerCase()));
  }
  if (signatures.length === 0) {
    throw new WebhookSignatureError(
      `the x-webhook-signature header holds no sha256=<64 hex> value ("${signatureHeader.slice(0, 80)}")`,
      'INVALID_HEADER',
    );
  }

  const body = toBytes(rawBody);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix, 0);
  signed.set(body, prefix.length);

  let matched = false;
  for (const secret of secretList) {
    const expected = await hmacSha256(secret, signed);
    // Compare against every value (no early exit), so timing says nothing about which matched.
    for (const candidate of signatures) matched = constantTimeEqual(expected, candidate) || matched;
  }
  if (!matched) {
    throw new WebhookSignatureError(
      `no signature in x-webhook-signature matches ${secretList.length === 1 ? 'the secret' : `any of the ${secretList.length} secrets`}: a wrong or rotated-out secret, a body changed after signing (verify the raw bytes, before parsing), or a forgery`,
    );
  }

  // The timestamp is checked only once it is known to be authentic.
  const sentAt = Date.parse(timestamp);
  if (Number.isNaN(sentAt))
    throw new WebhookSignatureError(
      `x-webhook-timestamp is not an ISO 8601 timestamp ("${timestamp.slice(0, 40)}")`,
      'INVALID_HEADER',
    );
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now =
    options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const ageSeconds = (now - sentAt) / 1000;
  if (Math.abs(ageSeconds) > tolerance) {
    throw new WebhookTimestampError(
      ageSeconds > 0
        ? `the delivery was signed ${Math.round(ageSeconds)} s ago, more than the tolerance of ${tolerance} s: a replayed capture, or a late retry (widen toleranceSeconds for ids you have not processed)`
        : `the delivery is signed ${Math.round(-ageSeconds)} s in the future, more than the tolerance of ${tolerance} s: check this machine's clock`,
      timestamp,
      ageSeconds,
    );
  }

  let event: unknown;
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(body));
  } catch {
    throw new WebhookPayloadError('the signed body is not JSON');
  }
  const envelope = event as { version?: unknown; id?: unknown; event?: unknown; occurredAt?: unknown; data?: unknown };
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope))
    throw new WebhookPayloadError('the signed body is not a webhook envelope (a JSON object)');
  // Only the envelope this SDK's types describe: a body of another version would be misread.
  if (envelope.version !== 2)
    throw new WebhookPayloadError(
      `the envelope's version is ${JSON.stringify(envelope.version)}; this SDK reads version 2 (upgrade @convene/sdk)`,
    );
  if (envelope.id !== id || envelope.event !== eventName)
    throw new WebhookPayloadError(
      "the envelope's id and event do not match its x-webhook-id and x-webhook-event headers",
    );
  if (typeof envelope.occurredAt !== 'string' || Number.isNaN(Date.parse(envelope.occurredAt)))
    throw new WebhookPayloadError("the envelope's occurredAt is not an ISO 8601 timestamp");
  if (typeof envelope.data !== 'object' || envelope.data === null || Array.isArray(envelope.data))
    throw new WebhookPayloadError("the envelope's data is not an object");
  return event as WebhookEvent;
}
