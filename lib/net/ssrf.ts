import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Webhook targets must be public: no loopback, private, link-local, CGNAT, multicast or cloud
 * metadata addresses, nor an IPv6 address carrying one (every transition form) — checked when the URL is saved AND when each delivery connects (a DNS name
 * may point elsewhere later). RTMP stream destinations go through the same check when a stream
 * starts (lib/domain/streams.ts). WEBHOOK_ALLOW_INSECURE_URLS lifts both for development and tests.
 */
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blockedV4.addSubnet(net, prefix, 'ipv4');

/** IPv6 ranges refused outright (they carry no IPv4 address, or one that must not be trusted). */
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['64:ff9b:1::', 48], // NAT64 local-use: translated by a local gateway
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed locally by some stacks)
  ['ff00::', 8], // multicast
  ['fd00:ec2::', 32], // AWS metadata over IPv6 (inside fc00::/7 already; kept explicit)
] as const)
  blockedV6.addSubnet(net, prefix, 'ipv6');

/** 16 bytes of an IPv6 address in any textual spelling (::, embedded dotted IPv4, zone id), or null. */
function ipv6Bytes(address: string): Uint8Array | null {
  let a = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(a) !== 6) return null;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (tail) {
    const [b0, b1, b2, b3] = tail.slice(1).map(Number);
    a = `${a.slice(0, tail.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, rest] = a.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  return bytes;
}

const v4At = (b: Uint8Array, i: number, xor = 0) => [0, 1, 2, 3].map((k) => b[i + k] ^ xor).join('.');
const zero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

/**
 * The IPv4 addresses an IPv6 address carries, by transition form: IPv4-compatible ::a.b.c.d,
 * IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4
 * 2002:AABB:CCDD::/16 and Teredo 2001:0::/32 (server address, and the client address stored
 * inverted). Empty when it carries none.
 */
function embeddedIpv4(b: Uint8Array): string[] {
  if (zero(b, 0, 12)) return [v4At(b, 12)]; // IPv4-compatible (and :: / ::1, refused before this)
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return [v4At(b, 12)]; // mapped
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return [v4At(b, 12)]; // translated
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return [v4At(b, 12)]; // NAT64 well-known
  if (b[0] === 0x20 && b[1] === 0x02) return [v4At(b, 2)]; // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return [v4At(b, 4), v4At(b, 12, 0xff)]; // Teredo
  return [];
}

/**
 * The one address classifier for SSRF, at save time and at connect time: an address is public
 * only if it is in no reserved range and every IPv4 address it carries is public too.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return !blockedV4.check(address, 'ipv4');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(address);
  if (!bytes) return false;
  const canonical = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2] << 8) | bytes[i * 2 + 1]).toString(16)).join(
    ':',
  );
  if (blockedV6.check(canonical, 'ipv6')) return false;
  return embeddedIpv4(bytes).every((v4) => !blockedV4.check(v4, 'ipv4'));
}

export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
}

/** Throws UnsafeUrlError unless the URL is https and every address it resolves to is public. */
export async function assertPublicUrl(
  raw: string,
  opts: { allowInsecure: boolean; resolve?: typeof dnsLookup },
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('not a valid URL');
  }
  if (url.username || url.password) throw new UnsafeUrlError('must not contain credentials');
  if (opts.allowInsecure) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeUrlError('must be an http(s) URL');
    return url;
  }
  if (url.protocol !== 'https:') throw new UnsafeUrlError('must be an https URL');
  await assertPublicHost(url.hostname, opts.resolve);
  return url;
}

/**
 * Throws UnsafeUrlError unless the host (a URL's hostname: an address, [IPv6] or a DNS name) and
 * every address it resolves to are public. For any scheme: webhook URLs above, RTMP destinations.
 */
export async function assertPublicHost(hostname: string, resolve: typeof dnsLookup = dnsLookup): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new UnsafeUrlError('must not point to a private, loopback or link-local address');
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) {
    throw new UnsafeUrlError('must not point to a local host name');
  }
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host, { all: true, verbatim: true });
  } catch {
    throw new UnsafeUrlError(`host ${host} does not resolve`);
  }
  if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
    throw new UnsafeUrlError(`host ${host} resolves to a private, loopback or link-local address`);
  }
}
