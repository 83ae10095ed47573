import { z } from 'zod';
import { ERROR_STATUS } from '@/lib/errors';
import {
  FAILED_CREDENTIALS_PER_ADDRESS,
  FAILED_CREDENTIALS_WINDOW_SECONDS,
  PARTICIPANT_REQUESTS_PER_SECOND,
  PROVIDER_REQUESTS_PER_SECOND,
} from '@/lib/http/rate-limit';
import { API_TAGS, type RouteDescription, type RouteHandler } from '@/lib/http/route';
import { ROUTE_MODULES } from '@/lib/openapi/routes.generated';
import { EVENT_DATA, EVENT_NAMES, eventEnvelope, type EventName } from '@/lib/events/catalog';
import { responseComponents } from '@/lib/domain/shared.schemas';

/**
 * The OpenAPI 3.1 document, built from the route handlers themselves: each carries the auth and
 * the zod body and query schemas it validates with, and the zod response schema its result is
 * typed with (zod's own JSON Schema output, which is the dialect OpenAPI 3.1 uses). Named response
 * shapes (registered with named() in each area's lib/domain/X.schemas.ts) become components; each
 * route declares its own section (tag) and one-line summary. Nothing here is maintained by hand.
 */
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

export interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  handler: RouteHandler;
}

export function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const { path, module } of ROUTE_MODULES) {
    for (const method of METHODS) {
      const handler = module[method] as RouteHandler | undefined;
      if (handler) ops.push({ method, path, handler });
    }
  }
  return ops;
}

const security: Record<string, object[]> = {
  tenant: [{ apiKey: [] }],
  provider: [{ providerKey: [] }],
  participant: [{ participantToken: [] }],
  none: [],
};

function jsonSchema(schema: z.ZodType) {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

type JsonSchema = Record<string, unknown>;

/**
 * A response schema as JSON Schema (output side: what is sent). Named shapes nested in it are
 * hoisted into `components` and referenced; a named root becomes a plain $ref. Timestamps keep
 * format: date-time without zod's long regex.
 */
function responseJsonSchema(
  schema: z.ZodType,
  components: Record<string, JsonSchema>,
  registry: typeof responseComponents = responseComponents,
): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    metadata: registry,
    override: ({ zodSchema, jsonSchema }) => {
      if (jsonSchema.format === 'date-time' || jsonSchema.format === 'date') delete jsonSchema.pattern;
      // .describe() writes to zod's global registry, which a custom `metadata` registry replaces.
      const description = z.globalRegistry.get(zodSchema)?.description;
      if (description && !jsonSchema.description && !jsonSchema.$ref) jsonSchema.description = description;
    },
  }) as JsonSchema;
  const {
    $schema: _ignored,
    $defs,
    ...root
  } = JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] ??= def;
  return root;
}

function successResponse(description: RouteDescription, components: Record<string, JsonSchema>) {
  if (description.response) {
    return {
      description: responseComponents.get(description.response)?.description ?? 'Success',
      content: { 'application/json': { schema: responseJsonSchema(description.response, components) } },
    };
  }
  if (description.produces) {
    return {
      description: 'Success',
      content: Object.fromEntries(
        description.produces.map((type) => [
          type,
          { schema: type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' } },
        ]),
      ),
    };
  }
  // Undocumented: the API reference test fails on this.
  return { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } };
}

const errorResponse = (codes: string[]) => ({
  description: codes.join(', '),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function errorResponses(op: Operation) {
  const byStatus = new Map<number, string[]>();
  const add = (code: keyof typeof ERROR_STATUS) =>
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const { auth, body } = op.handler.description;
  if (body || op.handler.description.query) add('VALIDATION_FAILED');
  if (body) {
    add('INVALID_JSON');
    add('PAYLOAD_TOO_LARGE');
    add('UNSUPPORTED_MEDIA_TYPE');
  }
  if (auth.kind !== 'none') add('UNAUTHENTICATED');
  if (auth.kind === 'tenant') {
    add('FORBIDDEN');
    add('TENANT_SUSPENDED');
  }
  if (auth.kind !== 'none' || auth.perAddressPerSecond) add('RATE_LIMITED');
  if (op.path.includes('{')) add('NOT_FOUND');
  if (op.method === 'POST' && auth.kind !== 'none') add('CONFLICT');
  // Any operation: the database could not be reached or was too busy; retry (README: error codes).
  add('SERVICE_UNAVAILABLE');
  return Object.fromEntries([...byStatus].map(([status, codes]) => [String(status), errorResponse(codes)]));
}

// ───────────────────────────── webhooks ─────────────────────────────

/** room.started → RoomStarted */
const pascal = (name: string) =>
  name
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** Each event's data schema as a component (<Event>EventData), $ref'd from its envelope. */
let eventDataRegistry: typeof responseComponents | undefined;
function eventDataComponents(): typeof responseComponents {
  if (!eventDataRegistry) {
    eventDataRegistry = z.registry<{ id: string; description?: string }>();
    for (const name of EVENT_NAMES)
      eventDataRegistry.add(EVENT_DATA[name], {
        id: `${pascal(name)}EventData`,
        description: EVENT_DATA[name].description,
      });
  }
  return eventDataRegistry;
}

/** The headers every delivery carries (lib/events/delivery.ts deliveryHeaders). */
function webhookHeaders(name: EventName) {
  const header = (header: string, description: string, schema: JsonSchema) => ({
    name: header,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string', ...schema },
  });
  return [
    header('x-webhook-event', 'The event name.', { const: name }),
    header('x-webhook-id', "The event id (the body's id): the same on every retry and on a replay. Dedupe on it.", {
      pattern: '^evt_',
    }),
    header('x-webhook-timestamp', "The signed timestamp; equals the body's occurredAt.", { format: 'date-time' }),
    header('x-webhook-version', 'The payload version.', { const: '2' }),
    header(
      'x-webhook-signature',
      'sha256=<hex>: HMAC-SHA256 with the webhook secret over `<x-webhook-timestamp>.<raw body>`. During a secret rotation several comma-separated values (newest first); accept if any matches, compared in constant time.',
      { pattern: '^sha256=[0-9a-f]{64}(,sha256=[0-9a-f]{64})*$' },
    ),
  ];
}

/**
 * The OpenAPI 3.1 `webhooks` object: one entry per event in the catalogue, each a POST to the
 * tenant's webhookUrl whose body is the v2 envelope with that event's data.
 */
function webhooks(components: Record<string, JsonSchema>) {
  const registry = eventDataComponents();
  return Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      {
        post: {
          tags: ['Webhook events'],
          summary: name,
          operationId: `on${pascal(name)}`,
          description: [
            EVENT_DATA[name].description,
            "POSTed as JSON to the tenant's webhookUrl when subscribed (webhookEvents; null = every event). Verify x-webhook-signature on the raw body before parsing it; see docs/webhooks.md.",
            name === 'webhook.test'
              ? ''
              : `A synthetic delivery from POST /api/v1/webhooks/test {"event": "${name}"} carries the webhook.test data ({test: true, message}) instead.`,
          ]
            .filter(Boolean)
            .join(' '),
          parameters: webhookHeaders(name),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: responseJsonSchema(eventEnvelope(name), components, registry) } },
          },
          responses: {
            '2XX': {
              description:
                'Any 2xx acknowledges the delivery (the response body is ignored; its first 4 KB are kept in the attempt log).',
            },
            default: {
              description:
                'Anything else (another status, a timeout of 10 s, a refused or reset connection, a TLS error, a redirect, which is never followed) is a failed attempt: retried with the same x-webhook-id, up to 6 attempts with exponential backoff.',
            },
          },
        },
      },
    ]),
  );
}

/** Which budget an operation spends (every limited response carries x-ratelimit-limit/remaining/reset). */
function rateLimitNote(auth: Operation['handler']['description']['auth']): string | undefined {
  switch (auth.kind) {
    case 'tenant':
      return "per API key: the tenant plan's apiRequestsPerSecond";
    case 'provider':
      return `per provider key: ${PROVIDER_REQUESTS_PER_SECOND} requests per second`;
    case 'participant':
      return `per participant: ${PARTICIPANT_REQUESTS_PER_SECOND} requests per second`;
    case 'none':
      return auth.perAddressPerSecond
        ? `per client address: ${auth.perAddressPerSecond} requests per second (X-Forwarded-For only from TRUSTED_PROXIES)`
        : undefined;
  }
}

// The document depends only on the code and the server URL: built once per process and URL
// (building it takes tens of milliseconds, and GET /openapi.json needs no credential).
const built = new Map<string, ReturnType<typeof buildDocument>>();
export function buildOpenApiDocument(serverUrl: string) {
  let document = built.get(serverUrl);
  if (!document) {
    document = buildDocument(serverUrl);
    built.set(serverUrl, document);
  }
  return document;
}

function buildDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, JsonSchema> = {};
  for (const op of operations()) {
    const { tag, summary, auth, body, query, status } = op.handler.description;
    const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParams = query
      ? Object.entries((jsonSchema(query).properties ?? {}) as Record<string, object>).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((jsonSchema(query).required ?? []) as string[]).includes(name),
          schema,
        }))
      : [];
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = {
      tags: [tag],
      summary,
      operationId: `${op.method.toLowerCase()}${op.path
        .replace(/\/api\/v1/, '')
        .replace(/[{}]/g, '')
        .replace(/[/.-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      security: security[auth.kind],
      ...(auth.kind === 'tenant' ? { 'x-permission': auth.permission } : {}),
      ...(rateLimitNote(auth) ? { 'x-rate-limit': rateLimitNote(auth) } : {}),
      parameters: [
        ...pathParams,
        ...queryParams,
        ...(op.method === 'POST' && auth.kind !== 'none'
          ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }]
          : []),
      ],
      ...(body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body) } } } }
        : {}),
      responses: { [String(status)]: successResponse(op.handler.description, components), ...errorResponses(op) },
    };
  }
  const events = webhooks(components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Convene API',
      version: '1',
      description: `Multi-tenant hosted video meetings. Errors always use the Error envelope; lists are { data, nextCursor } with ?limit= (1–100) and ?cursor=. Input bounds on every operation: bodies up to 64 KB, nested at most 32 levels, at most 10,000 values; metadata objects at most 8 levels and 200 keys; a NUL character or an unpaired UTF-16 surrogate in any string (body or query) is 400 VALIDATION_FAILED naming the field; an id that cannot be ours is 404. Rate limits: per API key (the plan), per provider key (100/s), per participant (30/s), per client address for operations without a credential (10/s), and per client address for refused credentials (${FAILED_CREDENTIALS_PER_ADDRESS} refused API keys, provider keys, participant tokens or admission secrets per ${FAILED_CREDENTIALS_WINDOW_SECONDS} s; past that, 429 with Retry-After for any credential from that address); each operation names its budget in x-rate-limit, and limited responses carry x-ratelimit-limit/remaining/reset. The participant surface, /me/*, /polls/public/*, /questions/public/* and /chat/messages, is what the hosted call UI calls with a participant token (Authorization: Bearer, from join), acting as the token’s participant in the token’s room: “public” in a path names that surface, not access without a credential; its host actions need a HOST or MODERATOR participant per Convene’s records. Idempotency-Key compares the parsed body canonically (key order does not matter). See docs/ in the repository (docs/security.md) for the rules of each area.`,
    },
    servers: [{ url: serverUrl }],
    tags: [...API_TAGS, 'Webhook events'].map((name) => ({ name })),
    paths,
    webhooks: events,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'Tenant API key: cv_live_… or cv_test_…',
        },
        providerKey: { type: 'apiKey', in: 'header', name: 'x-provider-key', description: 'Provider key: cv_prov_…' },
        participantToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A participant token from join',
        },
      },
      schemas: {
        ...Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'requestId'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
                message: { type: 'string' },
                details: {
                  type: 'array',
                  items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
                },
                requestId: { type: 'string' },
              },
            },
          },
        },
      },
    },
  };
}
