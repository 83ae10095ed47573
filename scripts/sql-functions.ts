/**
 * The database's functions live as source files, one per function, in prisma/sql/ (a rule change is
 * a one-file diff). A migration applies them: each file's text sits in the migration between
 * `-- source: prisma/sql/<name>.sql` and `-- end: prisma/sql/<name>.sql`. The newest migration that
 * holds a file's block must hold the file exactly (test/foundation/sql-functions.test.ts).
 *
 *   npm run db:functions          writes a new migration with every source file that changed
 *   npm run db:functions -- --check
 *                                 exits 1 and names them instead
 *
 * A change of a function's arguments or result type also needs `DROP FUNCTION` of the old one:
 * add it by hand at the top of the generated migration.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMain } from './is-main';

const ROOT = path.join(import.meta.dirname, '..');
export const SQL_DIR = path.join(ROOT, 'prisma/sql');
export const MIGRATIONS_DIR = path.join(ROOT, 'prisma/migrations');

const start = (file: string) => `-- source: prisma/sql/${file}`;
const end = (file: string) => `-- end: prisma/sql/${file}`;

/** A source file's text wrapped in its markers, as a migration holds it. */
export const block = (file: string, text: string) => `${start(file)}\n${text.trimEnd()}\n${end(file)}\n`;

/** The source blocks a migration holds, by file name. */
export function blocksIn(migration: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of migration.matchAll(/^-- source: prisma\/sql\/(\S+)\n([\s\S]*?)^-- end: prisma\/sql\/\1$/gm)) {
    found.set(m[1], m[2].trimEnd());
  }
  return found;
}

export type Drift = { file: string; problem: 'not in any migration' | 'differs from its newest migration' };

/** Source files whose newest migration block is missing or differs. Migrations in name (time) order. */
export function drift(sources: Map<string, string>, migrations: string[]): Drift[] {
  const newest = new Map<string, string>();
  for (const migration of migrations) for (const [file, text] of blocksIn(migration)) newest.set(file, text);
  const drifted: Drift[] = [];
  for (const [file, text] of sources) {
    const applied = newest.get(file);
    if (applied === undefined) drifted.push({ file, problem: 'not in any migration' });
    else if (applied !== text.trimEnd()) drifted.push({ file, problem: 'differs from its newest migration' });
  }
  return drifted;
}

export function readSources(): Map<string, string> {
  const files = readdirSync(SQL_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return new Map(files.map((f) => [f, readFileSync(path.join(SQL_DIR, f), 'utf8')]));
}

export function readMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => readFileSync(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8'));
}

/**
 * A migration applying these source files, in name order. Function bodies are checked when they
 * run, not when they are created, so one function may call another defined later in the file.
 */
export function migrationFor(sources: Map<string, string>): string {
  const files = [...sources.keys()].sort();
  return ['SET check_function_bodies = false;', '', ...files.map((f) => block(f, sources.get(f)!))].join('\n');
}

function main() {
  const sources = readSources();
  const drifted = drift(sources, readMigrations());
  if (drifted.length === 0) {
    console.log('Every function in prisma/sql/ is in its newest migration.');
    return;
  }
  if (process.argv.includes('--check')) {
    for (const d of drifted) console.error(`prisma/sql/${d.file}: ${d.problem}`);
    process.exit(1);
  }
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const name = `${stamp}_functions_${drifted.map((d) => d.file.replace(/^convene_|\.sql$/g, '')).join('_')}`.slice(
    0,
    120,
  );
  const dir = path.join(MIGRATIONS_DIR, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'migration.sql'),
    migrationFor(new Map(drifted.map((d) => [d.file, sources.get(d.file)!]))),
  );
  console.log(`Wrote prisma/migrations/${name}/migration.sql (${drifted.map((d) => d.file).join(', ')})`);
}

if (isMain(import.meta.filename)) main();
