import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../lib/runtime/embedded-postgres';

/**
 * The PostgreSQL a test run uses: CONVENE_TEST_ADMIN_URL, else the machine's on 127.0.0.1:5432,
 * else an embedded one started for the run (a fresh CI machine has none).
 */
export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function withDatabase(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function locatePostgres(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  const configured = process.env.CONVENE_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  if (await canConnect(configured)) return { adminUrl: configured, stop: async () => undefined };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'convene-test-pg-'));
  chmodSync(dir, 0o755); // as root, the server runs as the postgres user, which must reach its data dir
  const embedded = await startEmbeddedPostgres({ dir, port: 54000 + Math.floor(Math.random() * 900) });
  return {
    adminUrl: embedded.adminUrl,
    stop: async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
