import { isIP } from 'node:net';
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
  /**
   * The media layer's API key pair. Development and tests fall back to `livekit-server --dev`'s
   * published pair; production has no default and refuses a published pair (see mediaCredentialIssues).
   */
  LIVEKIT_API_KEY: z.string().min(1).optional(),
  LIVEKIT_API_SECRET: z.string().min(1).optional(),
  /** Agent name dispatched for live captions. */
  LIVEKIT_CAPTIONS_AGENT: z.string().default('convene-captions'),

  WEBHOOK_BACKOFF_BASE_MS: int(5000),
  WEBHOOK_TIMEOUT_MS: int(10000),
  WEBHOOK_MAX_ATTEMPTS: int(6),
  /** Development and tests only: allow http:// and loopback/private webhook URLs. */
  WEBHOOK_ALLOW_INSECURE_URLS: bool,
  /** Attempts in flight per tenant (its receiver's open requests at most): docs/webhooks.md. */
  WEBHOOK_TENANT_CONCURRENCY: int(64),

  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_BASE_URL: z.string().url().optional(),

  REDIS_URL: z.string().url().optional(),
  /** Cache API key lookups per process, invalidated by PostgreSQL NOTIFY (off: one query per request). */
  CREDENTIAL_CACHE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Comma-separated addresses or CIDR ranges of the reverse proxies in front of this service.
   * X-Forwarded-For is read only when the connecting peer is one of them (never by default).
   */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .refine(
      (v) => !v || v.split(',').every((p) => isAddressOrCidr(p.trim())),
      'must be a comma-separated list of IP addresses or CIDR ranges',
    ),
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

  /** An OpenAI-compatible transcription API (`{STT_BASE_URL}/v1/audio/transcriptions`): transcripts and captions. */
  STT_BASE_URL: z.string().url().optional(),
  STT_API_KEY: z.string().optional(),
  STT_MODEL: z.string().min(1).default('whisper-1'),
  /** The provider's largest upload (OpenAI, Groq: 25 MB): a larger recording is sent as audio pieces. */
  STT_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1000)
    .default(25 * 1024 * 1024),
  /** How long one transcription request may take before it counts as the provider's failure. */
  STT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /** An OpenAI-compatible chat-completions API (`{LLM_BASE_URL}/v1/chat/completions`): meeting summaries. */
  LLM_BASE_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** The model's context window in tokens: a longer transcript is summarised in pieces, then combined. */
  LLM_CONTEXT_TOKENS: z.coerce.number().int().min(1000).max(10_000_000).default(16_000),
  LLM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),

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

type Config = Omit<z.infer<typeof schema>, 'LIVEKIT_API_KEY' | 'LIVEKIT_API_SECRET' | 'TRUSTED_PROXIES'> & {
  LIVEKIT_API_KEY: string;
  LIVEKIT_API_SECRET: string;
  TRUSTED_PROXIES: string[];
};

/** The development pair of `livekit-server --dev`, published in LiveKit's docs and ours. */
const DEV_MEDIA_KEY = 'devkey';
const DEV_MEDIA_SECRET = 'secret';
/**
 * Media credentials published in LiveKit's documentation, examples and sample configs (and older
 * versions of ours). Anyone can sign participant tokens and media webhooks with them, so a
 * production process refuses to start with any of them.
 */
const WELL_KNOWN_MEDIA_KEYS = new Set([
  'devkey',
  'APIdevkey',
  'key1',
  'key2',
  'api_key',
  'apikey',
  'APIKEY',
  'your_api_key',
  'LIVEKIT_API_KEY',
]);
const WELL_KNOWN_MEDIA_SECRETS = new Set([
  'secret',
  'secret1',
  'secret2',
  'devsecret',
  'api_secret',
  'apisecret',
  'your_api_secret',
  'LIVEKIT_API_SECRET',
]);
/** LiveKit itself warns below 32 characters; production refuses shorter secrets. */
const MIN_PRODUCTION_MEDIA_SECRET = 32;

/** Why production must not run with these media credentials (empty: fine). */
function mediaCredentialIssues(env: Record<string, string | undefined>): string[] {
  const key = env.LIVEKIT_API_KEY;
  const secret = env.LIVEKIT_API_SECRET;
  const issues: string[] = [];
  if (!key) issues.push("  LIVEKIT_API_KEY: required in production (the media layer's API key; there is no default)");
  else if (WELL_KNOWN_MEDIA_KEYS.has(key))
    issues.push(`  LIVEKIT_API_KEY: "${key}" is a published development key; set your media layer's own key`);
  if (!secret)
    issues.push("  LIVEKIT_API_SECRET: required in production (the media layer's API secret; there is no default)");
  else if (WELL_KNOWN_MEDIA_SECRETS.has(secret))
    issues.push("  LIVEKIT_API_SECRET: a published development secret; set your media layer's own secret");
  else if (secret.length < MIN_PRODUCTION_MEDIA_SECRET)
    issues.push(`  LIVEKIT_API_SECRET: must be at least ${MIN_PRODUCTION_MEDIA_SECRET} characters in production`);
  return issues;
}

let cached: Config | undefined;

export function config(): Config {
  if (!cached) cached = parseConfig(process.env);
  return cached;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  const lines = result.success ? [] : result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  if ((result.success ? result.data.NODE_ENV : env.NODE_ENV) === 'production')
    lines.push(...mediaCredentialIssues(env));
  if (!result.success || lines.length) {
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const data = result.data;
  return {
    ...data,
    LIVEKIT_API_KEY: data.LIVEKIT_API_KEY ?? DEV_MEDIA_KEY,
    LIVEKIT_API_SECRET: data.LIVEKIT_API_SECRET ?? DEV_MEDIA_SECRET,
    TRUSTED_PROXIES: parseTrustedProxies(data.TRUSTED_PROXIES),
  };
}

/** Tests change the environment between suites; production never calls this. */
export function resetConfigForTests(): void {
  cached = undefined;
}

function isAddressOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function parseTrustedProxies(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}
