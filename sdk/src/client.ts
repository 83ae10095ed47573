import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { ConveneError, errorFromResponse } from './errors.js';
import { createTransport, DEFAULTS, type TransportOptions } from './transport.js';
import { PageRequest, type Page } from './pagination.js';

export interface ConveneOptions extends TransportOptions {
  /** Where Convene is served, e.g. `https://convene.example.com` (no /api/v1). */
  baseUrl: string;
  /** Tenant API key (`cv_live_…` / `cv_test_…`), sent as x-api-key to every non-provider endpoint. */
  apiKey?: string;
  /** Provider key (`cv_prov_…`), sent as x-provider-key to /api/v1/provider/… endpoints. */
  providerKey?: string;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

/** Per call: an Idempotency-Key of your own (e.g. derived from your order id), an abort signal, overrides. */
export interface RequestOptions {
  /** Sent on POSTs; when absent one is generated per call and reused across that call's retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** The JSON request body of an operation. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters of a GET operation. */
export type QueryOf<P extends keyof paths> =
  Op<P, 'get'> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The 2xx JSON body of an operation. */
export type ResponseOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: infer R }
    ? {
        [S in keyof R]: S extends 200 | 201 | 202
          ? R[S] extends { content: { 'application/json': infer J } }
            ? J
            : never
          : never;
      }[keyof R]
    : never;
type ItemOf<P extends keyof paths> = ResponseOf<P, 'get'> extends { data: (infer T)[] } ? T : never;

const PROVIDER_PATH = /^\/api\/v1\/provider\//;

/**
 * The Convene client: `convene.rooms.create(...)`, `convene.webhooks.deliveries.list()`,
 * `convene.provider.tenants.provision(...)`, ... Every method returns the typed 2xx body or throws
 * a ConveneError. Every endpoint of the API reference is also callable, typed, through
 * `convene.api` (openapi-fetch), with the same auth, retries and errors.
 */
export class Convene {
  /** The generated, fully typed openapi-fetch client for every endpoint; non-2xx answers throw ConveneError. */
  readonly api: Client<paths>;
  private readonly options: ConveneOptions;

  constructor(options: ConveneOptions) {
    if (!options?.baseUrl)
      throw new TypeError('new Convene({ baseUrl }): baseUrl is required, e.g. https://convene.example.com');
    this.options = options;
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: createTransport(options),
      headers: options.headers,
    });
    this.api.use(authMiddleware(options), errorMiddleware);
  }

  /** @internal the openapi-fetch init of one call. */
  init(opts: RequestOptions = {}) {
    const overrides = opts.timeoutMs !== undefined || opts.maxRetries !== undefined;
    return {
      headers: { ...opts.headers, ...(opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {}) },
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(overrides
        ? {
            fetch: createTransport({
              ...this.options,
              timeoutMs: opts.timeoutMs ?? this.options.timeoutMs,
              maxRetries: opts.maxRetries ?? this.options.maxRetries,
            }),
          }
        : {}),
    };
  }

  /** @internal */
  list<P extends keyof paths>(
    fetchPage: (cursor: string | undefined) => Promise<{ data: ItemOf<P>[]; nextCursor: string | null }>,
    cursor?: string,
  ): PageRequest<ItemOf<P>> {
    return new PageRequest(fetchPage as (cursor: string | undefined) => Promise<Page<ItemOf<P>>>, cursor);
  }

  readonly rooms = {
    /** POST /api/v1/rooms */
    create: (body: RequestBody<'/api/v1/rooms', 'post'>, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/rooms', { body, ...this.init(opts) })),
    /** GET /api/v1/rooms/{id}: the room with its participants. */
    get: (id: string, opts?: RequestOptions) =>
      call(this.api.GET('/api/v1/rooms/{id}', { params: { path: { id } }, ...this.init(opts) })),
    /** GET /api/v1/rooms: `await` it for one page, or `for await` over every room. */
    list: (query: QueryOf<'/api/v1/rooms'> = {}, opts?: RequestOptions) =>
      this.list<'/api/v1/rooms'>(
        (cursor) =>
          call(this.api.GET('/api/v1/rooms', { params: { query: { ...query, cursor } }, ...this.init(opts) })),
        query.cursor,
      ),
    /** PATCH /api/v1/rooms/{id}: settings, lock or unlock. */
    update: (id: string, body: RequestBody<'/api/v1/rooms/{id}', 'patch'>, opts?: RequestOptions) =>
      call(this.api.PATCH('/api/v1/rooms/{id}', { params: { path: { id } }, body, ...this.init(opts) })),
    /**
     * POST /api/v1/rooms/{id}/join: mints a participant token and its join URL. Redirect the user
     * to `joinUrl`, or to `admissionUrl` when `waitingForApproval` is true.
     */
    join: (id: string, body: RequestBody<'/api/v1/rooms/{id}/join', 'post'>, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/rooms/{id}/join', { params: { path: { id } }, body, ...this.init(opts) })),
    /** POST /api/v1/rooms/{id}/end */
    end: (id: string, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/rooms/{id}/end', { params: { path: { id } }, ...this.init(opts) })),
    /** POST /api/v1/rooms/{id}/reopen */
    reopen: (id: string, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/rooms/{id}/reopen', { params: { path: { id } }, ...this.init(opts) })),
    /** GET /api/v1/rooms/{id}/info: the public facts (no credential needed). */
    info: (id: string, opts?: RequestOptions) =>
      call(this.api.GET('/api/v1/rooms/{id}/info', { params: { path: { id } }, ...this.init(opts) })),
    participants: {
      /** GET /api/v1/rooms/{id}/participants */
      list: (roomId: string, query: QueryOf<'/api/v1/rooms/{id}/participants'> = {}, opts?: RequestOptions) =>
        this.list<'/api/v1/rooms/{id}/participants'>(
          (cursor) =>
            call(
              this.api.GET('/api/v1/rooms/{id}/participants', {
                params: { path: { id: roomId }, query: { ...query, cursor } },
                ...this.init(opts),
              }),
            ),
          query.cursor,
        ),
      /** GET /api/v1/rooms/{id}/participants/{participantId} */
      get: (roomId: string, participantId: string, opts?: RequestOptions) =>
        call(
          this.api.GET('/api/v1/rooms/{id}/participants/{participantId}', {
            params: { path: { id: roomId, participantId } },
            ...this.init(opts),
          }),
        ),
      /** POST …/approve: admit a participant from the waiting room (a host or moderator acts). */
      approve: (
        roomId: string,
        participantId: string,
        body: RequestBody<'/api/v1/rooms/{id}/participants/{participantId}/approve', 'post'>,
        opts?: RequestOptions,
      ) =>
        call(
          this.api.POST('/api/v1/rooms/{id}/participants/{participantId}/approve', {
            params: { path: { id: roomId, participantId } },
            body,
            ...this.init(opts),
          }),
        ),
      /** POST …/deny: refuse a participant from the waiting room for good. */
      deny: (
        roomId: string,
        participantId: string,
        body: RequestBody<'/api/v1/rooms/{id}/participants/{participantId}/deny', 'post'>,
        opts?: RequestOptions,
      ) =>
        call(
          this.api.POST('/api/v1/rooms/{id}/participants/{participantId}/deny', {
            params: { path: { id: roomId, participantId } },
            body,
            ...this.init(opts),
          }),
        ),
      /** POST …/remove: remove (kick) a participant. */
      remove: (roomId: string, participantId: string, opts?: RequestOptions) =>
        call(
          this.api.POST('/api/v1/rooms/{id}/participants/{participantId}/remove', {
            params: { path: { id: roomId, participantId } },
            ...this.init(opts),
          }),
        ),
      /** GET …/admission: waiting, approved (with token and joinUrl) or denied. */
      admission: (roomId: string, participantId: string, opts?: RequestOptions) =>
        call(
          this.api.GET('/api/v1/rooms/{id}/participants/{participantId}/admission', {
            params: { path: { id: roomId, participantId } },
            ...this.init(opts),
          }),
        ),
    },
  };

  readonly calls = {
    /** POST /api/v1/calls: queue a call. */
    create: (body: RequestBody<'/api/v1/calls', 'post'>, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls', { body, ...this.init(opts) })),
    /** GET /api/v1/calls/{id}: the call with its room. */
    get: (id: string, opts?: RequestOptions) =>
      call(this.api.GET('/api/v1/calls/{id}', { params: { path: { id } }, ...this.init(opts) })),
    /** GET /api/v1/calls: next up first; `for await` walks every page. */
    list: (query: QueryOf<'/api/v1/calls'> = {}, opts?: RequestOptions) =>
      this.list<'/api/v1/calls'>(
        (cursor) =>
          call(this.api.GET('/api/v1/calls', { params: { query: { ...query, cursor } }, ...this.init(opts) })),
        query.cursor,
      ),
    /** POST /api/v1/calls/{id}/ring: offer the call to an agent. */
    ring: (id: string, body: RequestBody<'/api/v1/calls/{id}/ring', 'post'>, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls/{id}/ring', { params: { path: { id } }, body, ...this.init(opts) })),
    /** POST /api/v1/calls/{id}/accept: creates the room; both join URLs and tokens. */
    accept: (id: string, body: RequestBody<'/api/v1/calls/{id}/accept', 'post'>, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls/{id}/accept', { params: { path: { id } }, body, ...this.init(opts) })),
    /** POST /api/v1/calls/{id}/forward */
    forward: (id: string, body: RequestBody<'/api/v1/calls/{id}/forward', 'post'>, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls/{id}/forward', { params: { path: { id } }, body, ...this.init(opts) })),
    /** POST /api/v1/calls/{id}/cancel */
    cancel: (id: string, body: RequestBody<'/api/v1/calls/{id}/cancel', 'post'> = {}, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls/{id}/cancel', { params: { path: { id } }, body, ...this.init(opts) })),
    /** POST /api/v1/calls/{id}/miss */
    miss: (id: string, body: RequestBody<'/api/v1/calls/{id}/miss', 'post'> = {}, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls/{id}/miss', { params: { path: { id } }, body, ...this.init(opts) })),
    /** POST /api/v1/calls/{id}/end: ends the call and its room. */
    end: (id: string, body: RequestBody<'/api/v1/calls/{id}/end', 'post'> = {}, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/calls/{id}/end', { params: { path: { id } }, body, ...this.init(opts) })),
  };

  readonly tenant = {
    /** GET /api/v1/tenant: plan, resolved limits, webhook configuration. */
    get: (opts?: RequestOptions) => call(this.api.GET('/api/v1/tenant', this.init(opts))),
    keys: {
      /** GET /api/v1/tenant/keys (hints only). */
      list: (opts?: RequestOptions) => call(this.api.GET('/api/v1/tenant/keys', this.init(opts))),
      /**
       * POST /api/v1/tenant/keys/rotate: a new key with the same permissions; the key making
       * this call keeps working for gracePeriodSeconds. Store `plainTextKey`: it is shown once.
       */
      rotate: (body: RequestBody<'/api/v1/tenant/keys/rotate', 'post'> = {}, opts?: RequestOptions) =>
        call(this.api.POST('/api/v1/tenant/keys/rotate', { body, ...this.init(opts) })),
    },
    /** GET /api/v1/tenant/usage */
    usage: (opts?: RequestOptions) => call(this.api.GET('/api/v1/tenant/usage', this.init(opts))),
  };

  readonly webhooks = {
    /** PATCH /api/v1/tenant/webhook: the URL and the event filter (null = every event). */
    configure: (body: RequestBody<'/api/v1/tenant/webhook', 'patch'>, opts?: RequestOptions) =>
      call(this.api.PATCH('/api/v1/tenant/webhook', { body, ...this.init(opts) })),
    /** POST /api/v1/tenant/webhook-secret/rotate: the new secret (shown once); both sign during the overlap. */
    rotateSecret: (body: RequestBody<'/api/v1/tenant/webhook-secret/rotate', 'post'> = {}, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/tenant/webhook-secret/rotate', { body, ...this.init(opts) })),
    /** POST /api/v1/webhooks/test: a signed synthetic event through the real pipeline. */
    test: (body: RequestBody<'/api/v1/webhooks/test', 'post'> = {}, opts?: RequestOptions) =>
      call(this.api.POST('/api/v1/webhooks/test', { body, ...this.init(opts) })),
    deliveries: {
      /** GET /api/v1/webhooks/deliveries: `await` it for one page, or `for await` over every delivery (newest first). */
      list: (query: QueryOf<'/api/v1/webhooks/deliveries'> = {}, opts?: RequestOptions) =>
        this.list<'/api/v1/webhooks/deliveries'>(
          (cursor) =>
            call(
              this.api.GET('/api/v1/webhooks/deliveries', {
                params: { query: { ...query, cursor } },
                ...this.init(opts),
              }),
            ),
          query.cursor,
        ),
      /** GET /api/v1/webhooks/deliveries/{id}: with every attempt. */
      get: (id: string, opts?: RequestOptions) =>
        call(this.api.GET('/api/v1/webhooks/deliveries/{id}', { params: { path: { id } }, ...this.init(opts) })),
      /** POST /api/v1/webhooks/deliveries/{id}/replay: a new delivery with the original event id. */
      replay: (id: string, opts?: RequestOptions) =>
        call(
          this.api.POST('/api/v1/webhooks/deliveries/{id}/replay', { params: { path: { id } }, ...this.init(opts) }),
        ),
    },
  };

  readonly provider = {
    tenants: {
      /** POST /api/v1/provider/tenants: the tenant, its first API key and its webhook secret (both shown once). */
      provision: (body: RequestBody<'/api/v1/provider/tenants', 'post'>, opts?: RequestOptions) =>
        call(this.api.POST('/api/v1/provider/tenants', { body, ...this.init(opts) })),
      /** GET /api/v1/provider/tenants */
      list: (query: QueryOf<'/api/v1/provider/tenants'> = {}, opts?: RequestOptions) =>
        this.list<'/api/v1/provider/tenants'>(
          (cursor) =>
            call(
              this.api.GET('/api/v1/provider/tenants', { params: { query: { ...query, cursor } }, ...this.init(opts) }),
            ),
          query.cursor,
        ),
      /** GET /api/v1/provider/tenants/{id} */
      get: (id: string, opts?: RequestOptions) =>
        call(this.api.GET('/api/v1/provider/tenants/{id}', { params: { path: { id } }, ...this.init(opts) })),
      /** PATCH /api/v1/provider/tenants/{id}: plan, entitlementOverrides, status, ... */
      update: (id: string, body: RequestBody<'/api/v1/provider/tenants/{id}', 'patch'>, opts?: RequestOptions) =>
        call(this.api.PATCH('/api/v1/provider/tenants/{id}', { params: { path: { id } }, body, ...this.init(opts) })),
      /** GET /api/v1/provider/tenants/{id}/usage */
      usage: (id: string, opts?: RequestOptions) =>
        call(this.api.GET('/api/v1/provider/tenants/{id}/usage', { params: { path: { id } }, ...this.init(opts) })),
      /** POST /api/v1/provider/tenants/{id}/webhook-secret/rotate */
      rotateWebhookSecret: (
        id: string,
        body: RequestBody<'/api/v1/provider/tenants/{id}/webhook-secret/rotate', 'post'> = {},
        opts?: RequestOptions,
      ) =>
        call(
          this.api.POST('/api/v1/provider/tenants/{id}/webhook-secret/rotate', {
            params: { path: { id } },
            body,
            ...this.init(opts),
          }),
        ),
      apiKeys: {
        /** POST /api/v1/provider/tenants/{id}/api-keys */
        create: (
          tenantId: string,
          body: RequestBody<'/api/v1/provider/tenants/{id}/api-keys', 'post'> = {},
          opts?: RequestOptions,
        ) =>
          call(
            this.api.POST('/api/v1/provider/tenants/{id}/api-keys', {
              params: { path: { id: tenantId } },
              body,
              ...this.init(opts),
            }),
          ),
        /** GET /api/v1/provider/tenants/{id}/api-keys */
        list: (tenantId: string, opts?: RequestOptions) =>
          call(
            this.api.GET('/api/v1/provider/tenants/{id}/api-keys', {
              params: { path: { id: tenantId } },
              ...this.init(opts),
            }),
          ),
        /** POST /api/v1/provider/tenants/{id}/api-keys/{keyId}/rotate */
        rotate: (
          tenantId: string,
          keyId: string,
          body: RequestBody<'/api/v1/provider/tenants/{id}/api-keys/{keyId}/rotate', 'post'> = {},
          opts?: RequestOptions,
        ) =>
          call(
            this.api.POST('/api/v1/provider/tenants/{id}/api-keys/{keyId}/rotate', {
              params: { path: { id: tenantId, keyId } },
              body,
              ...this.init(opts),
            }),
          ),
        /** DELETE /api/v1/provider/tenants/{id}/api-keys/{keyId} */
        revoke: (tenantId: string, keyId: string, opts?: RequestOptions) =>
          call(
            this.api.DELETE('/api/v1/provider/tenants/{id}/api-keys/{keyId}', {
              params: { path: { id: tenantId, keyId } },
              ...this.init(opts),
            }),
          ),
      },
    },
  };
}

/** `new Convene(options)`. */
export function createConvene(options: ConveneOptions): Convene {
  return new Convene(options);
}

function authMiddleware(options: ConveneOptions): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const provider = PROVIDER_PATH.test(schemaPath);
      if (provider && options.providerKey && !request.headers.has('x-provider-key'))
        request.headers.set('x-provider-key', options.providerKey);
      if (!provider && options.apiKey && !request.headers.has('x-api-key'))
        request.headers.set('x-api-key', options.apiKey);
      return request;
    },
  };
}

/** Non-2xx answers, and 2xx answers that are not the JSON they should be, become ConveneError. */
const errorMiddleware: Middleware = {
  async onResponse({ request, response, options }) {
    if (!response.ok) throw errorFromResponse(response, await readText(response, request), request.method);
    if (options.parseAs !== 'json' || response.status === 204) return undefined;
    const text = await readText(response, request);
    if (text) {
      try {
        JSON.parse(text);
      } catch {
        throw new ConveneError({
          code: 'UNEXPECTED_RESPONSE',
          message: `${request.method} ${request.url} answered ${response.status} with a body that is not JSON (${response.headers.get('content-type') ?? 'no content type'}); a proxy in between may have answered`,
          status: response.status,
          requestId: response.headers.get('x-request-id'),
          method: request.method,
          url: request.url,
        });
      }
    }
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  },
};

async function readText(response: Response, request: Request): Promise<string> {
  try {
    return await response.text();
  } catch (cause) {
    throw clientError(cause, request);
  }
}

function clientError(cause: unknown, request: Request): ConveneError {
  if (cause instanceof ConveneError) return cause;
  const name = (cause as { name?: string } | null)?.name;
  if (name === 'TimeoutError')
    return new ConveneError({
      code: 'TIMEOUT',
      message: `${request.method} ${request.url}: the answer did not complete in time`,
      method: request.method,
      url: request.url,
      cause,
    });
  if (name === 'AbortError')
    return new ConveneError({
      code: 'ABORTED',
      message: `${request.method} ${request.url} was aborted`,
      method: request.method,
      url: request.url,
      cause,
    });
  return new ConveneError({
    code: 'NETWORK_ERROR',
    message: `${request.method} ${request.url}: the answer could not be read (${cause instanceof Error ? cause.message : String(cause)})`,
    method: request.method,
    url: request.url,
    cause,
  });
}

/** The 2xx body of an openapi-fetch call; anything thrown that is not already a ConveneError becomes one. */
async function call<T>(pending: Promise<{ data?: T; response: Response }>): Promise<T> {
  try {
    const { data } = await pending;
    return data as T;
  } catch (cause) {
    if (cause instanceof ConveneError) throw cause;
    throw new ConveneError({
      code: 'UNEXPECTED_RESPONSE',
      message: `the call failed unexpectedly: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
}

export { DEFAULTS };
