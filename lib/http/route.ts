import type { z } from 'zod';
import { Prisma, isDatabaseUnavailable, isTransactionConflict } from '@/lib/db';
import { ApiError, type ErrorEnvelope } from '@/lib/errors';
import { newRequestId, runWithContext, requestContext, type RequestContext } from '@/lib/http/context';
import { readRawBody, parseJsonBody, validate, queryObject, assertPathIds } from '@/lib/http/body';
import { claimIdempotencyKey, completeIdempotencyKey, type IdempotencyClaim } from '@/lib/http/idempotency';
import {
  consumeRateLimit,
  limitFailedCredentials,
  PARTICIPANT_REQUESTS_PER_SECOND,
  PROVIDER_REQUESTS_PER_SECOND,
  PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND,
} from '@/lib/http/rate-limit';
import { clientAddress } from '@/lib/net/client-address';
import {
  authenticateApiKey,
  authenticateProviderKey,
  hasPermission,
  type TenantCredential,
  type ProviderCredential,
} from '@/lib/domain/keys';
import type { ParticipantCredential } from '@/lib/domain/me';
import { resolveLimits } from '@/lib/domain/plans';
import type { Permission } from '@/lib/domain/permissions';
import { recordApiRequest } from '@/lib/domain/usage';
import { observeRequest } from '@/lib/metrics';
import { log } from '@/lib/log';
import { toJsonText } from '@/lib/json-text';

/**
 * The one route wrapper. A handler reads: guard (auth), parse (body/query), one domain call,
 * respond. Everything else every endpoint shares lives here: request ids, the error envelope,
 * rate limits, Idempotency-Key, body limits, logging and metrics.
 */
type AuthSpec =
  | { kind: 'none'; perAddressPerSecond?: number }
  | { kind: 'tenant'; permission: Permission }
  | { kind: 'provider' }
  | { kind: 'participant'; evenIfRefused?: true };

export const auth = {
  none: { kind: 'none' } as const,
  /** No credential, rate-limited per client address (lib/net/client-address.ts). */
  publicPerAddress: { kind: 'none', perAddressPerSecond: PUBLIC_REQUESTS_PER_ADDRESS_PER_SECOND } as const,
  tenant: <P extends Permission>(permission: P) => ({ kind: 'tenant', permission }) as const,
  provider: { kind: 'provider' } as const,
  participant: { kind: 'participant' } as const,
  /**
   * GET /me only: lets a removed or refused participant past the guard, so that GET /me's own 403
   * names which (detail `entry`: removed | denied) and the call UI can tell the person why.
   */
  participantEvenIfRefused: { kind: 'participant', evenIfRefused: true } as const,
};

type AuthResult<A extends AuthSpec> = A extends { kind: 'tenant' }
  ? TenantCredential
  : A extends { kind: 'provider' }
    ? ProviderCredential
    : A extends { kind: 'participant' }
      ? ParticipantCredential
      : null;

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
/**
 * What a handler may return: with a response schema, a value of its shape (or a Response of its
 * own). Checked structurally (fields, nesting, nullability; enum and literal values as their base
 * type): the view functions are typed with the response schemas themselves for the exact values.
 */
type Result<R> = R extends z.ZodType ? Structural<z.input<R>> | Response : unknown;
type Structural<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends null | undefined
        ? T
        : T extends readonly (infer U)[]
          ? Structural<U>[]
          : T extends object
            ? { [K in keyof T]: Structural<T[K]> }
            : T;

interface HandlerContext<A extends AuthSpec, B, Q> {
  req: Request;
  params: Record<string, string>;
  auth: AuthResult<A>;
  body: Infer<B>;
  query: Infer<Q>;
  /** The raw body text, for endpoints that verify signatures over it. */
  rawBody: string;
  requestId: string;
}

/** The API reference's sections, in the order a reader meets them. */
export const API_TAGS = [
  'Rooms',
  'Participants',
  'Sessions',
  'Chat',
  'Polls',
  'Questions',
  'Calls',
  'Breakouts',
  'Recordings',
  'Streaming',
  'Ingress',
  'Captions',
  'Hosted UI',
  'Tenant',
  'Webhooks',
  'Provider',
  'Operations',
] as const;
type ApiTag = (typeof API_TAGS)[number];

interface RouteOptions<A extends AuthSpec, B, Q, R = undefined> {
  /** The API reference's section and one-line summary for this operation. */
  tag: ApiTag;
  summary: string;
  auth: A;
  body?: B;
  query?: Q;
  /** Status for a successful plain-object result (default 200). */
  status?: number;
  /**
   * The JSON success body, for the API reference only: never run on a response (that would cost
   * on every request). The compiler checks the handler's result against it instead.
   */
  response?: R;
  /** A success body that is not JSON (a file, a text exposition): its content types, for the API reference. */
  produces?: string[];
  /** The request body's limit in bytes, when smaller than the 64 KB every endpoint has (PAYLOAD_TOO_LARGE beyond). */
  maxBodyBytes?: number;
}

type Segment = { params: Promise<Record<string, string>> };

/** What a route declares, kept on the handler so the API reference is built from the same schemas. */
export interface RouteDescription {
  tag: ApiTag;
  summary: string;
  auth: AuthSpec;
  body?: z.ZodType;
  query?: z.ZodType;
  status: number;
  response?: z.ZodType;
  produces?: string[];
}
export type RouteHandler = ((req: Request, segment: Segment) => Promise<Response>) & { description: RouteDescription };

export function route<
  A extends AuthSpec,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(
  opts: RouteOptions<A, B, Q, R>,
  handler: (ctx: HandlerContext<A, B, Q>) => Promise<NoInfer<Result<R>>>,
): RouteHandler {
  const handle = async (req: Request, segment: Segment) => {
    const started = performance.now();
    const url = new URL(req.url);
    const params = (await segment?.params) ?? {};
    const ctx: RequestContext = {
      requestId: newRequestId(),
      method: req.method,
      route: routeTemplate(url.pathname, params),
      responseHeaders: {},
    };
    return runWithContext(ctx, async () => {
      let claim: IdempotencyClaim | undefined;
      let response: Response;
      try {
        const credential = await authenticate(opts.auth, req, ctx);
        assertPathIds(params);
        const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
        const rawBody = hasBody ? await readRawBody(req, opts.maxBodyBytes) : '';

        const idempotencyKey = req.headers.get('idempotency-key');
        if (req.method === 'POST' && idempotencyKey !== null && credential) {
          const scope =
            'apiKey' in credential
              ? credential.apiKey.id
              : 'providerKey' in credential
                ? credential.provider.id
                : `participant:${credential.participant.id}`;
          const outcome = await claimIdempotencyKey(scope, idempotencyKey, req.method, url.pathname, rawBody);
          if ('replay' in outcome) {
            response = jsonResponse(outcome.replay.body, outcome.replay.status, { 'idempotent-replayed': 'true' });
            return finish(ctx, response, started);
          }
          claim = outcome.claim;
        }

        const body = (
          opts.body ? parseJsonBody(rawBody, req.headers.get('content-type'), opts.body) : undefined
        ) as Infer<B>;
        const query = (opts.query ? validate(opts.query, queryObject(url), 'query') : undefined) as Infer<Q>;
        const result = await handler({
          req,
          params,
          auth: credential as AuthResult<A>,
          body,
          query,
          rawBody,
          requestId: ctx.requestId,
        });
        response = result instanceof Response ? result : jsonResponse(toJsonText(result ?? null), opts.status ?? 200);
      } catch (err) {
        response = errorResponse(err, ctx);
      }
      if (claim) {
        const text = await response.clone().text();
        await completeIdempotencyKey(claim, response.status, text).catch((err) =>
          log.error({ err, requestId: ctx.requestId }, 'idempotency store failed'),
        );
      }
      return finish(ctx, response, started);
    });
  };
  return Object.assign(handle, {
    description: {
      tag: opts.tag,
      summary: opts.summary,
      auth: opts.auth,
      body: opts.body,
      query: opts.query,
      status: opts.status ?? 200,
      response: opts.response,
      produces: opts.produces,
    },
  });
}

async function authenticate(spec: AuthSpec, req: Request, ctx: RequestContext) {
  switch (spec.kind) {
    case 'none':
      if (spec.perAddressPerSecond)
        await consumeRateLimit(`address:${clientAddress(req.headers)}`, spec.perAddressPerSecond);
      return null;
    case 'tenant':
      return authenticateTenant(req, spec.permission, ctx);
    case 'provider': {
      const header = req.headers.get('x-provider-key');
      const credential = await limitFailedCredentials(req.headers, !!header, () => authenticateProviderKey(header));
      ctx.providerId = credential.provider.id;
      await consumeRateLimit(`provider:${credential.providerKey.id}`, PROVIDER_REQUESTS_PER_SECOND);
      return credential;
    }
    case 'participant': {
      // Loaded on first use: only participant-token endpoints need the media layer's verifier.
      const { authenticateParticipant } = await import('@/lib/http/participant-auth');
      const header = req.headers.get('authorization');
      const credential = await limitFailedCredentials(req.headers, !!header, () =>
        authenticateParticipant(header, { evenIfRefused: spec.evenIfRefused }),
      );
      ctx.tenantId = credential.tenant.id;
      await consumeRateLimit(`participant:${credential.participant.id}`, PARTICIPANT_REQUESTS_PER_SECOND);
      return credential;
    }
  }
}

/** The tenant-key guard: key, rate limit, suspension, permission. Exported for endpoints with two credential kinds. */
export async function authenticateTenant(
  req: Request,
  permission: Permission,
  ctx = requestContext(),
): Promise<TenantCredential> {
  const header = req.headers.get('x-api-key');
  const credential = await limitFailedCredentials(req.headers, !!header, () => authenticateApiKey(header));
  if (ctx) ctx.tenantId = credential.tenant.id;
  await consumeRateLimit(
    `key:${credential.apiKey.id}`,
    resolveLimits(credential.tenant.plan, credential.tenant.entitlementOverrides).apiRequestsPerSecond,
  );
  recordApiRequest(credential.tenant.id);
  if (credential.tenant.status === 'SUSPENDED') {
    throw new ApiError('TENANT_SUSPENDED', 'This tenant is suspended. Contact your provider.');
  }
  if (!hasPermission(credential.apiKey, permission)) {
    throw new ApiError('FORBIDDEN', `This API key lacks the ${permission} permission.`);
  }
  return credential;
}

/** Replaces each param value in the path with [name], so logs and metrics group by route. */
function routeTemplate(pathname: string, params: Record<string, string>): string {
  let template = pathname;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value) template = template.split(`/${value}`).join(`/[${name}]`);
  }
  return template;
}

function finish(ctx: RequestContext, response: Response, started: number): Response {
  response.headers.set('x-request-id', ctx.requestId);
  for (const [k, v] of Object.entries(ctx.responseHeaders)) response.headers.set(k, v);
  const durationMs = performance.now() - started;
  observeRequest(ctx.method, ctx.route, response.status, durationMs);
  log.info(
    {
      requestId: ctx.requestId,
      tenantId: ctx.tenantId,
      providerId: ctx.providerId,
      method: ctx.method,
      route: ctx.route,
      status: response.status,
      durationMs: Math.round(durationMs * 10) / 10,
    },
    'request',
  );
  return response;
}

function jsonResponse(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : body, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function json(data: unknown, status = 200): Response {
  return jsonResponse(JSON.stringify(data), status);
}

export function errorResponse(err: unknown, ctx = requestContext()): Response {
  const requestId = ctx?.requestId ?? newRequestId();
  const apiError = toApiError(err);
  if (apiError.status >= 500 && apiError.code === 'INTERNAL') {
    log.error({ err, requestId, route: ctx?.route }, 'unhandled error');
  } else if (apiError.status >= 500) {
    log.warn({ err: { message: (err as Error)?.message }, requestId, route: ctx?.route }, apiError.code);
  }
  const envelope: ErrorEnvelope = {
    error: {
      code: apiError.code,
      message: apiError.message,
      ...(apiError.details ? { details: apiError.details } : {}),
      requestId,
    },
  };
  const response = jsonResponse(JSON.stringify(envelope), apiError.status);
  if (apiError.retryAfterSeconds !== undefined) response.headers.set('retry-after', String(apiError.retryAfterSeconds));
  return response;
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof Error && err.name === 'MediaLayerError') {
    return new ApiError(
      'MEDIA_LAYER_UNAVAILABLE',
      'The media layer did not answer; nothing was changed. Retry shortly.',
    );
  }
  // A database it cannot reach or get a connection to (Prisma or the raw pool): a 503 to retry, not a 500.
  if (isDatabaseUnavailable(err)) {
    // "Nothing was changed" holds unless the connection was lost while COMMIT was on its way: then
    // the outcome is unknown to us too, so the message does not promise it (docs/api.md, error codes).
    return new ApiError('SERVICE_UNAVAILABLE', 'The database is not reachable. Retry shortly.');
  }
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (err.code === 'P2025') return new ApiError('NOT_FOUND', 'Resource not found.');
    if (err.code === 'P2002') return new ApiError('CONFLICT', 'A resource with these values already exists.');
    if (err.code === 'P2028') return new ApiError('SERVICE_UNAVAILABLE', 'The service is busy; retry shortly.');
  }
  if (isTransactionConflict(err)) return new ApiError('SERVICE_UNAVAILABLE', 'The service is busy; retry shortly.');
  return new ApiError('INTERNAL', 'Something went wrong on our side. It has been logged.');
}
