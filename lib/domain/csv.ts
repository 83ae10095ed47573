/**
 * CSV for console downloads (RFC 4180: every field quoted, quotes doubled, CRLF rows). A field
 * that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) is prefixed with an
 * apostrophe, so a chat message or a display name can never execute in the reader's spreadsheet.
 */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}
