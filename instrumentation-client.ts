// Next.js runs this in the browser before the app's own modules load.

/**
 * Zod compiles a fast parser for each object schema with `new Function` when it may; to find out,
 * it tries `Function("")` once as the first object schema is made. The pages' CSP has no
 * 'unsafe-eval' (lib/http/page-security.ts), so that try throws — caught by Zod, but Firefox
 * reports it as a CSP violation on every page that makes a schema. Jitless parsing asks nothing of
 * the CSP and must be set before any schema is made, so here, first. Zod keeps its configuration on
 * `globalThis.__zod_globalConfig` (shared by every copy of Zod in a page, and read when Zod loads);
 * setting it there rather than calling `config()` keeps Zod itself out of pages that never make a
 * schema — the call's pre-join among them. test/ui/zod-jitless.test.ts holds Zod to this.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
