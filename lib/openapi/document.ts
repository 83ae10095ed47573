import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '@/lib/errors';
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
 * About 400 lines: the document's introduction (auth, errors, limits, webhooks) is written here,
 * beside the code that fills in its figures.
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
  // Non-JSON bodies a route may answer instead (a file; a transcript as WebVTT, SRT or text).
  const others = Object.fromEntries(
    (description.produces ?? []).map((type) => [
      type,
      {
        schema:
          type.startsWith('text/') || type === 'application/x-subrip'
            ? { type: 'string' }
            : { type: 'string', format: 'binary' },
      },
    ]),
  );
  if (description.response) {
    return {
      description: responseComponents.get(description.response)?.description ?? 'Success',
      content: { 'application/json': { schema: responseJsonSchema(description.response, components) }, ...others },
    };
  }
  if (description.produces) return { description: 'Success', content: others };
  // Undocumented: the API reference test fails on this.
  return { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } };
}

const errorResponse = (codes: string[]) => ({
  description: codes.join(', '),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function errorResponses(op: Operation) {
  const byStatus = new Map<number, string[]>();
  const add = (code: ErrorCode) => {
    const { status } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  };
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
  // Any operation: the database could not be reached or was too busy; retry (docs/api.md: error codes).
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

/**
 * Where an operation comes in an integrator's day, within its section: make one, join it, read
 * one, list them, change one, then the actions on one, reading what hangs off one, removing one.
 */
function journeyRank({ method, path }: Operation): number {
  if (path === '/api/v1/me') return -1; // the participant surface starts with who you are
  const item = /\}$/.test(path);
  const collection = !path.includes('{');
  if (method === 'POST' && (/\/start$/.test(path) || (collection && !/\/(stop|rotate|test|replay)$/.test(path))))
    return 0;
  if (/\/join$/.test(path)) return 1;
  if (method === 'GET' && item) return 2;
  if (method === 'GET' && collection) return 3;
  if (method === 'PATCH' || method === 'PUT') return 4;
  if (method === 'POST') return 5;
  if (method === 'GET') return 6;
  return 7; // DELETE
}

/**
 * The operations in the order the reference shows them: by section (API_TAGS), and within one the
 * way an integrator meets them (journeyRank) — create a room, join it, get it, list rooms… —
 * instead of by path (which opened the Rooms section with "End a room"). A path's operations stay
 * together (Redoc lists a path's methods in a row), ranked by its first one.
 */
function inJourneyOrder(ops: Operation[]): Operation[] {
  const tagIndex = (op: Operation) => API_TAGS.indexOf(op.handler.description.tag);
  const pathRank = new Map<string, number>();
  for (const op of ops) pathRank.set(op.path, Math.min(pathRank.get(op.path) ?? 99, journeyRank(op)));
  const methodOrder = ['POST', 'GET', 'PATCH', 'PUT', 'DELETE'];
  return [...ops].sort(
    (a, b) =>
      tagIndex(a) - tagIndex(b) ||
      pathRank.get(a.path)! - pathRank.get(b.path)! ||
      a.path.split('/').length - b.path.split('/').length ||
      a.path.localeCompare(b.path) ||
      journeyRank(a) - journeyRank(b) ||
      methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method),
  );
}

function buildDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, JsonSchema> = {};
  for (const op of inJourneyOrder(operations())) {
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
      // Redoc shows the title with the version in brackets: "Convene API (v1)".
      version: 'v1',
      description: [
        'Multi-tenant hosted video meetings: create a room, join people to it (each gets a participant token and a join URL for the hosted call), and follow what happens through webhooks. The sections below go the way an integration does: rooms first, then what happens in them, then your tenant and webhooks.',
        '## Credentials',
        '- **Tenant API key** (`x-api-key: cv_live_…` or `cv_test_…`): your backend, for everything about your rooms.',
        '- **Participant token** (`Authorization: Bearer …`, from a join): the hosted call UI, acting as that participant in that room — `/me/*`, `/polls/public/*`, `/questions/public/*` and `/chat/messages`. “public” in a path names that surface, not access without a credential; its host actions need a HOST or MODERATOR participant in Convene’s records.',
        '- **Provider key** (`x-provider-key: cv_prov_…`): a reseller, for its tenants.',
        '## Errors and lists',
        '- Errors always use the `Error` envelope with a catalogue `code` and a `requestId`.',
        '- Lists are `{ data, nextCursor }` with `?limit=` (1–100) and `?cursor=`.',
        '- `Idempotency-Key` on a POST replays the first answer; the parsed body is compared canonically (key order does not matter).',
        '## Input bounds',
        'Bodies up to 64 KB, nested at most 32 levels, at most 10,000 values; metadata objects at most 8 levels and 200 keys. A NUL character or an unpaired UTF-16 surrogate in any string (body or query) is 400 `VALIDATION_FAILED` naming the field; an id that cannot be ours is 404.',
        '## Rate limits',
        `Per API key (the plan), per provider key (100/s), per participant (30/s), per client address for operations without a credential (10/s), and per client address for refused credentials (${FAILED_CREDENTIALS_PER_ADDRESS} refused API keys, provider keys, participant tokens or admission secrets per ${FAILED_CREDENTIALS_WINDOW_SECONDS} s; past that, 429 with \`Retry-After\` for any credential from that address). Each operation names its budget in \`x-rate-limit\`; limited responses carry \`x-ratelimit-limit/remaining/reset\`.`,
        'See `docs/` in the repository (`docs/security.md`) for the rules of each area, and the guide at [/docs/guide](/docs/guide) for the first integration step by step.',
      ].join('\n\n'),
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
                code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
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
