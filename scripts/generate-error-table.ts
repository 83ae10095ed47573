/**
 * Writes the error table in docs/api.md (between its error-table markers) from the catalogue in
 * lib/errors.ts. `npm run docs:errors` after adding a code; test/api-reference.test.ts fails while
 * the table is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOGUE } from '../lib/errors';
import { isMain } from './is-main';

export const API_DOC = path.resolve(import.meta.dirname, '..', 'docs/api.md');
const START = '<!-- error-table:start -->';
const END = '<!-- error-table:end -->';

export function renderErrorTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, { status, meaning }]) => `| \`${code}\` | ${status} | ${meaning} |`);
  return ['| code | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The document with its table replaced by the catalogue's. */
export function withErrorTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${API_DOC} has no ${START} … ${END} section`);
  return `${doc.slice(0, start + START.length)}\n${renderErrorTable()}\n${doc.slice(end)}`;
}

if (isMain(import.meta.filename)) {
  writeFileSync(API_DOC, withErrorTable(readFileSync(API_DOC, 'utf8')));
}
