/**
 * Once per test run: find a PostgreSQL (CONVENE_TEST_ADMIN_URL, else the machine's on
 * 127.0.0.1:5432, else an embedded one), migrate a template database with the stock Prisma CLI,
 * and hand both to the suites. Each suite then clones the template into its own database.
 */
import type { TestProject } from 'vitest/node';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { locatePostgres, withDatabase } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const { adminUrl, stop: stopPostgres } = await locatePostgres();
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
    await stopPostgres();
  };
}
