/**
 * Security headers for every page (the proxy sets them; docs/security.md explains each), and the
 * same-origin rule for the console's server actions.
 *
 * The script policy allows this origin's scripts and Next's inline bootstrap scripts
 * ('unsafe-inline': the pages are prerendered, so per-request nonces cannot be used), the call UI's
 * E2EE worker (same-origin, or blob:), WebAssembly (the call UI's background and noise processors;
 * 'wasm-unsafe-eval' compiles wasm and allows no JavaScript eval), and nothing from any other origin; no plugins, no <base>
 * rewriting, forms post only here. Development adds 'unsafe-eval' (React's dev tooling needs it).
 */
export function scriptPolicy(dev = process.env.NODE_ENV === 'development'): string {
  return [
    `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'${dev ? " 'unsafe-eval'" : ''}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

export const PAGE_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  // Join links carry the participant token in the query: never send them on as a Referer.
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': 'camera=(self), microphone=(self), display-capture=(self), geolocation=()',
};

/**
 * A server action (any non-GET request to a page) must come from this origin: its Origin
 * header must be present and name the host the request was sent to. The host is the Host header,
 * or X-Forwarded-Host when the peer is a trusted proxy (the caller decides that). Browsers always
 * send Origin on a POST, so only forged or cross-site requests are refused.
 */
export function sameOriginAction(origin: string | null, host: string | null): boolean {
  if (!origin || !host || origin === 'null') return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
