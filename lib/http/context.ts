import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBase62 } from '@/lib/crypto';

/** Per-request facts that the wrapper, guards and logger share without threading arguments. */
export interface RequestContext {
  requestId: string;
  method: string;
  route: string;
  tenantId?: string;
  providerId?: string;
  /** Headers every response carries (x-ratelimit-*), set by the guard. */
  responseHeaders: Record<string, string>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function requestContext(): RequestContext | undefined {
  return storage.getStore();
}
