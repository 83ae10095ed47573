import { z } from 'zod';

/**
 * Every environment variable Convene reads, parsed once. A bad value stops the process at
 * startup with a message naming the variable, instead of failing later mid-request.
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().describe('PostgreSQL connection string'),
  DATABASE_POOL_SIZE: int(10),
  /** Base URL of this service as participants' browsers see it; join URLs point here. */
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:3000'),
  /** 32 bytes, hex or base64: encrypts webhook secrets and tenant media secrets at rest. */
  CONVENE_MASTER_KEY: z.string().min(32),

  LIVEKIT_URL: z.string().url().default('ws://127.0.0.1:7880'),
  LIVEKIT_API_KEY: z.string().min(1).default('devkey'),
  LIVEKIT_API_SECRET: z.string().min(1).default('secret'),
  /** Agent name dispatched for live captions. */
  LIVEKIT_CAPTIONS_AGENT: z.string().default('convene-captions'),

  WEBHOOK_BACKOFF_BASE_MS: int(5000),
  WEBHOOK_TIMEOUT_MS: int(10000),
  WEBHOOK_MAX_ATTEMPTS: int(6),
  /** Development and tests only: allow http:// and loopback/private webhook URLs. */
  WEBHOOK_ALLOW_INSECURE_URLS: bool,
  WEBHOOK_TENANT_CONCURRENCY: int(16),

  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_BASE_URL: z.string().url().optional(),

  REDIS_URL: z.string().url().optional(),
  /** Cache API key lookups per process, invalidated by PostgreSQL NOTIFY (off: one query per request). */
  CREDENTIAL_CACHE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: z.string().default('.data/storage'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool,

  STT_URL: z.string().url().optional(),
  STT_API_KEY: z.string().optional(),

  NEXTAUTH_SECRET: z.string().min(16).optional(),
  NEXTAUTH_URL: z.string().url().optional(),

  RETENTION_DAYS: int(30),
  /** How often the room lifecycle job runs (auto-end, empty rooms, reconciliation, retention). */
  LIFECYCLE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Run the in-process queue workers (pg-boss). Off for processes that only serve HTTP. */
  QUEUE_WORKERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) cached = parseConfig(process.env);
  return cached;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Tests change the environment between suites; production never calls this. */
export function resetConfigForTests(): void {
  cached = undefined;
}
