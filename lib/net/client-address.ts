import http from 'node:http';
import { BlockList, isIP } from 'node:net';
import { config } from '@/lib/config';

/**
 * The client address of a request, for per-address limits (sign-in, GET /rooms/{id}/info).
 *
 * Route handlers see a Fetch Request, which carries no socket. At boot, the HTTP server's
 * 'request' event is wrapped so every request carries the TCP peer's address in
 * PEER_ADDRESS_HEADER (any value a client sent under that name is overwritten, so it cannot be
 * forged). X-Forwarded-For is read only when that peer is one of TRUSTED_PROXIES: then the
 * client is the right-most address in the chain that is not itself a trusted proxy. By default
 * (no TRUSTED_PROXIES) forwarded headers are ignored entirely.
 */
export const PEER_ADDRESS_HEADER = 'x-convene-peer-address';

const HOOK = Symbol.for('convene.peerAddressHook');

export function installPeerAddressHook(): void {
  const proto = http.Server.prototype as http.Server & { [HOOK]?: true };
  if (proto[HOOK]) return;
  proto[HOOK] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_ADDRESS_HEADER] = normalise(req.socket?.remoteAddress ?? '') || 'unknown';
    }
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;
}

const normalise = (address: string) => {
  const a = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a;
};

let trusted: { source: string; list: BlockList } | undefined;
function trustedProxies(): BlockList {
  const entries = config().TRUSTED_PROXIES;
  const source = entries.join(',');
  if (trusted?.source === source) return trusted.list;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  trusted = { source, list };
  return list;
}

export function isTrustedProxy(address: string): boolean {
  const a = normalise(address);
  const family = isIP(a);
  return family !== 0 && trustedProxies().check(a, family === 6 ? 'ipv6' : 'ipv4');
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;
const get = (headers: HeaderSource, name: string) => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

export function clientAddress(headers: HeaderSource): string {
  const peer = normalise(get(headers, PEER_ADDRESS_HEADER) ?? '') || 'unknown';
  if (!isTrustedProxy(peer)) return peer;
  const chain = (get(headers, 'x-forwarded-for') ?? '').split(',').map(normalise).filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!isIP(chain[i])) return peer; // a garbled chain: fall back to the proxy itself
    if (!isTrustedProxy(chain[i])) return chain[i];
  }
  return chain[0] ?? peer;
}
