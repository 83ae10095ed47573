/** How requests and errors are named in log lines and error answers. */
import type http from 'node:http';

/** An error's reason for a log line or an answer: never empty. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message || (err as { code?: string }).code || err.name;
  return String(err) || 'unknown error';
}

/** The path without its query: the query carries the access token, which logs must not. */
export const requestPath = (req: http.IncomingMessage) => (req.url ?? '/').split('?')[0];
