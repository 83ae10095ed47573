/**
 * The stock Prisma CLI, driven through prisma/engine/schema-engine.mjs (the WebAssembly engine),
 * creates and applies migrations on a scratch database: the path every schema change takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const prismaBin = path.join(root, 'node_modules/.bin/prisma');
// The globalSetup provides the admin URL (CONVENE_TEST_ADMIN_URL, the local server or an embedded one).
const adminUrl =
  inject('databaseAdminUrl') ?? process.env.CONVENE_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const databases = [
  `engine_a_${randomBytes(4).toString('hex')}`,
  `engine_b_${randomBytes(4).toString('hex')}`,
  `engine_c_${randomBytes(4).toString('hex')}`,
];
const urlOf = (db: string) => Object.assign(new URL(adminUrl), { pathname: `/${db}` }).toString();
let dir: string;

function prisma(args: string[], database: string, env: Record<string, string> = {}, cwd = dir): string {
  return execFileSync(prismaBin, args, {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: urlOf(database),
      PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, 'prisma/engine/schema-engine.mjs'),
      ...env,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function query<T = Record<string, unknown>>(database: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'convene-engine-'));
  mkdirSync(path.join(dir, 'prisma'));
  writeFileSync(
    path.join(dir, 'prisma/schema.prisma'),
    'datasource db {\n  provider = "postgresql"\n}\n\nmodel Widget {\n  id   String @id\n  kind String @default("plain")\n  size Int\n  @@index([kind])\n}\n\nenum Shade {\n  LIGHT\n  DARK\n}\n',
  );
  writeFileSync(
    path.join(dir, 'prisma.config.ts'),
    "export default { schema: 'prisma/schema.prisma', migrations: { path: 'prisma/migrations' }, datasource: { url: process.env.DATABASE_URL } };\n",
  );
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (const db of databases) await admin.query(`CREATE DATABASE "${db}"`);
  await admin.end();
});

afterAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (const db of databases) await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  const leftovers = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'prisma_shadow_%'");
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
  expect(leftovers.rowCount).toBe(0); // the temporary shadow database was dropped
});

describe('prisma CLI through the wasm schema engine', () => {
  it('migrate dev creates a migration and applies it', () => {
    prisma(['migrate', 'dev', '--name', 'init'], databases[0]);
    const [migration] = readdirSync(path.join(dir, 'prisma/migrations')).filter((n) => n.endsWith('_init'));
    expect(migration).toBeDefined();
    const sql = readFileSync(path.join(dir, 'prisma/migrations', migration, 'migration.sql'), 'utf8');
    expect(sql).toContain('CREATE TABLE "Widget"');
    expect(sql).toContain('CREATE TYPE "Shade"');
  }, 120_000);

  it('records the migration with the checksum of its file, as the native engine does', async () => {
    const [migration] = readdirSync(path.join(dir, 'prisma/migrations')).filter((n) => n.endsWith('_init'));
    const file = readFileSync(path.join(dir, 'prisma/migrations', migration, 'migration.sql'));
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      databases[0],
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].migration_name).toBe(migration);
    expect(rows[0].checksum).toBe(createHash('sha256').update(file).digest('hex'));
    expect(rows[0].finished_at).not.toBeNull();
    const columns = await query<{ column_name: string }>(
      databases[0],
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'Widget' ORDER BY column_name",
    );
    expect(columns.map((c) => c.column_name)).toEqual(['id', 'kind', 'size']);
  });

  it('migrate deploy applies it to another empty database, and status reports it up to date', async () => {
    const out = prisma(['migrate', 'deploy'], databases[1]);
    expect(out).toMatch(/successfully applied/);
    expect(await query(databases[1], 'SELECT 1 FROM "Widget"')).toEqual([]);
    expect(prisma(['migrate', 'status'], databases[1])).toMatch(/up to date/);
  }, 120_000);

  it('a schema change becomes a second migration', () => {
    const schemaFile = path.join(dir, 'prisma/schema.prisma');
    writeFileSync(schemaFile, readFileSync(schemaFile, 'utf8').replace('size Int', 'size Int\n  note String?'));
    prisma(['migrate', 'dev', '--name', 'add_note'], databases[0]);
    const [second] = readdirSync(path.join(dir, 'prisma/migrations')).filter((n) => n.endsWith('_add_note'));
    expect(readFileSync(path.join(dir, 'prisma/migrations', second, 'migration.sql'), 'utf8')).toMatch(
      /ALTER TABLE "Widget" ADD COLUMN\s+"note" TEXT/,
    );
  }, 120_000);

  it('migrate diff prints SQL', () => {
    const out = prisma(
      ['migrate', 'diff', '--from-empty', '--to-schema', 'prisma/schema.prisma', '--script'],
      databases[1],
    );
    expect(out).toContain('CREATE TABLE "Widget"');
  }, 120_000);

  it("the project's migrations build exactly its schema: no drift for `migrate dev` to find", () => {
    expect(prisma(['migrate', 'deploy'], databases[2], {}, root)).toMatch(/successfully applied/);
    // --exit-code: 0 when the database already is the schema, 2 when a migration is missing.
    const out = prisma(
      ['migrate', 'diff', '--from-config-datasource', '--to-schema', 'prisma/schema.prisma', '--script', '--exit-code'],
      databases[2],
      {},
      root,
    );
    expect(out).toContain('empty migration');
  }, 120_000);

  it('a Rust panic in the engine reaches the CLI as an error with its message', () => {
    // FORCE_PANIC_SCHEMA_ENGINE makes the CLI call the engine's debugPanic method.
    let failure: { status?: number; stderr?: string; stdout?: string } | undefined;
    try {
      prisma(['migrate', 'status'], databases[1], { FORCE_PANIC_SCHEMA_ENGINE: '1' });
    } catch (err) {
      failure = err as typeof failure;
    }
    expect(failure?.status).not.toBe(0);
    expect(`${failure?.stdout}${failure?.stderr}`).toContain('debugPanic artificial panic');
  }, 120_000);
});
