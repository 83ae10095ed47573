/**
 * The database's functions have one source each in prisma/sql/; the newest migration that applies a
 * function must hold its source exactly, so a rule change is reviewed as a one-file diff and no
 * migration is forgotten. The migrated template database runs the same text.
 */
import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { block, drift, migrationFor, readMigrations, readSources } from '../../scripts/sql-functions';
import { withDatabase } from '../support/postgres';

describe('SQL functions as source files', () => {
  it('every prisma/sql file is in its newest migration, exactly', () => {
    expect(drift(readSources(), readMigrations())).toEqual([]);
  });

  it('finds a source that differs from its newest migration, and one no migration holds', () => {
    const sources = new Map([
      ['convene_a.sql', 'CREATE OR REPLACE FUNCTION convene_a() RETURNS int LANGUAGE sql AS $$ SELECT 2 $$;\n'],
      ['convene_b.sql', 'CREATE OR REPLACE FUNCTION convene_b() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n'],
    ]);
    const first = migrationFor(new Map([['convene_a.sql', sources.get('convene_a.sql')!.replace('2', '1')]]));
    expect(drift(sources, [first])).toEqual([
      { file: 'convene_a.sql', problem: 'differs from its newest migration' },
      { file: 'convene_b.sql', problem: 'not in any migration' },
    ]);
    // A later migration with the new text settles it; an older one does not count.
    const second = `-- a later change\n${block('convene_a.sql', sources.get('convene_a.sql')!)}`;
    expect(drift(sources, [first, second]).map((d) => d.file)).toEqual(['convene_b.sql']);
    expect(drift(sources, [second, first]).map((d) => d.file)).toEqual(['convene_a.sql', 'convene_b.sql']);
  });

  it('the migrated database defines every function of prisma/sql', async () => {
    const client = new pg.Client({
      connectionString: withDatabase(inject('databaseAdminUrl'), inject('templateDatabase')),
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ proname: string }>(
        `SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND proname LIKE 'convene\\_%'`,
      );
      const defined = new Set(rows.map((r) => r.proname));
      const sourced = [...readSources().keys()].map((f) => f.replace(/\.sql$/, ''));
      expect(sourced.filter((f) => !defined.has(f))).toEqual([]);
      expect([...defined].filter((f) => !sourced.includes(f))).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
