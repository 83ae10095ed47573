// Next.js runs this in the browser before the app's own modules load.
import { config } from 'zod';

/**
 * Zod compiles a fast parser for each object schema with `new Function` when it may; to find out,
 * it tries `Function("")` once as the first object schema is made. The pages' CSP has no
 * 'unsafe-eval' (lib/http/page-security.ts), so that try throws — caught by Zod, but Firefox
 * reports it as a CSP violation on every page that makes a schema (the call's pre-join did, as
 * soon as it loaded). Jitless parsing asks nothing of the CSP: it must be set before any schema
 * is made, so here, first.
 */
config({ jitless: true });
