/**
 * Once per test run: find a PostgreSQL (CONVENE_TEST_ADMIN_URL, else the machine's on
 * 127.0.0.1:5432, else an embedded one), migrate a template database with the stock Prisma CLI,
 * and hand both to the suites. Each suite then clones the template into its own database.
 */
import type { TestProject } from 'vitest/node';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../lib/runtime/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    templateDatabase: string;
  }
}

async function canConnect(url: string): Promise<boolean> {
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

export default async function setup(project: TestProject) {
  let adminUrl = process.env.CONVENE_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedDir: string | undefined;
  if (!(await canConnect(adminUrl))) {
    embeddedDir = mkdtempSync(path.join(os.tmpdir(), 'convene-test-pg-'));
    const embedded = await startEmbeddedPostgres({ dir: embeddedDir, port: 54000 + Math.floor(Math.random() * 900) });
    adminUrl = embedded.adminUrl;
    stopEmbedded = embedded.stop;
  }
  process.env.CONVENE_TEST_ADMIN_URL = adminUrl;

  const template = `convene_tmpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  const migrate = spawnSync('npx', ['prisma', 'migrate', 'deploy'], {
    env: { ...process.env, DATABASE_URL: withDatabase(adminUrl, template) },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) {
    await admin.query(`DROP DATABASE IF EXISTS "${template}"`);
    await admin.end();
    throw new Error(`prisma migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
  }
  project.provide('databaseAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await admin.end();
    await stopEmbedded?.();
    if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  };
}
