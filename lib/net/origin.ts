import { isIP } from 'node:net';

/**
 * An origin allowed to frame the hosted call UI (frameAncestors): `http(s)://host[:port]`, the host
 * a DNS name, an IPv4 address or `localhost`, optionally with a leading `*.` on a domain of at least
 * two labels (`https://*.example.com`; never `https://*` or `https://*.com`). Returned normalised:
 * lower case, punycode, default port dropped, no path, no trailing slash (built only from the parsed,
 * checked host and port, never from the raw text). Anything else (paths, quotes,
 * `;`, `,`, spaces, credentials, other schemes) is null: values go into a
 * Content-Security-Policy header, so only exact origins may.
 */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function normaliseFrameOrigin(raw: string): string | null {
  const m = /^(https?):\/\/(\*\.)?([^/?#\s]+)\/?$/i.exec(raw.trim());
  if (!m) return null;
  const [, scheme, wildcard, hostPort] = m;
  let url: URL;
  try {
    url = new URL(`${scheme.toLowerCase()}://${hostPort}`);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  const host = url.hostname;
  // The URL parser accepts more than a CSP host-source allows: check the host it produced.
  const ipv4 = isIP(host) === 4;
  const labels = host.split('.');
  const dnsName = labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
  if (!ipv4 && !dnsName) return null;
  if (wildcard && (ipv4 || labels.length < 2)) return null;
  return `${url.protocol}//${wildcard ? '*.' : ''}${url.host}`;
}
