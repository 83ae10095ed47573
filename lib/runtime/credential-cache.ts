import pg from 'pg';
import { config } from '@/lib/config';
import { log } from '@/lib/log';
import { metrics } from '@/lib/metrics';
import { processState } from '@/lib/runtime/process-state';

/**
 * Tenant API key lookups, cached per process: the hottest query (every API request) becomes a
 * map lookup. Correctness comes from PostgreSQL: triggers NOTIFY 'convene_credentials' whenever
 * a key or tenant changes (prisma/sql/convene_notify_credentials.sql), and every process LISTENs and
 * empties its cache. While the LISTEN connection is down nothing is cached, so a missed signal can
 * never leave a revoked key working. Expiry is checked on every use, not at caching time.
 */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = 'convene_credentials';

// Once per process: the routes that read the cache and shutdown, which closes its listener.
const state = processState('credentialCache', () => ({
  cache: new Map<string, { value: unknown; at: number }>(),
  listener: undefined as pg.Client | undefined,
  listening: false,
  connecting: false,
  closed: false,
  // Bumped on every invalidation: a lookup that started before one must not be cached after it.
  generation: 0,
  retryMs: 500,
}));

function invalidate() {
  state.generation++;
  state.cache.clear();
}

function ensureListener() {
  if (state.listening || state.connecting || state.closed) return;
  state.connecting = true;
  const client = new pg.Client({
    connectionString: config().DATABASE_URL,
    application_name: 'convene-credential-cache',
  });
  const lost = (err?: Error) => {
    if (state.listener !== client) return;
    state.listening = false;
    state.listener = undefined;
    invalidate();
    client.end().catch(() => undefined);
    if (!state.closed) {
      log.debug({ err }, 'credential cache listener lost; caching paused');
      setTimeout(ensureListener, state.retryMs).unref();
      state.retryMs = Math.min(state.retryMs * 2, 30_000);
    }
  };
  client.on('error', lost);
  client.on('end', () => lost());
  client.on('notification', invalidate);
  state.listener = client;
  client
    .connect()
    .then(() => client.query(`LISTEN ${CHANNEL}`))
    .then(() => {
      invalidate();
      state.listening = true;
      state.retryMs = 500;
    })
    .catch(lost)
    .finally(() => {
      state.connecting = false;
    });
}

/** The cached result of load() for this key hash; null results (unknown keys) are never cached. */
export async function cachedCredential<T>(keyHash: string, load: () => Promise<T | null>): Promise<T | null> {
  if (!config().CREDENTIAL_CACHE) return load();
  ensureListener();
  if (!state.listening) return load();
  const hit = state.cache.get(keyHash);
  if (hit && Date.now() - hit.at < TTL_MS) {
    metrics().credentialCache.inc({ result: 'hit' });
    return hit.value as T;
  }
  metrics().credentialCache.inc({ result: 'miss' });
  const generation = state.generation;
  const value = await load();
  if (value !== null && state.listening && generation === state.generation) {
    if (state.cache.size >= MAX_ENTRIES) state.cache.clear();
    state.cache.set(keyHash, { value, at: Date.now() });
  }
  return value;
}

/**
 * Called after this process changes a key or tenant: its own next request must not wait for the
 * NOTIFY to come back (other processes get it within milliseconds).
 */
export function credentialsChanged(): void {
  invalidate();
}

export async function closeCredentialCache(): Promise<void> {
  state.closed = true;
  state.listening = false;
  invalidate();
  const client = state.listener;
  state.listener = undefined;
  await client?.end().catch(() => undefined);
}
