import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Webhook targets must be public: no loopback, private, link-local, CGNAT, multicast or cloud
 * metadata addresses — checked when the URL is saved AND when each delivery connects (a DNS name
 * may point elsewhere later). WEBHOOK_ALLOW_INSECURE_URLS lifts this for development and tests.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32], ['fd00:ec2::', 32],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
}

/** Throws UnsafeUrlError unless the URL is https and every address it resolves to is public. */
export async function assertPublicUrl(raw: string, opts: { allowInsecure: boolean; resolve?: typeof dnsLookup }): Promise<URL> {
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new UnsafeUrlError('must not point to a private, loopback or link-local address');
    return url;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) {
    throw new UnsafeUrlError('must not point to a local host name');
  }
  let addresses: { address: string }[];
  try {
    addresses = await (opts.resolve ?? dnsLookup)(host, { all: true, verbatim: true });
  } catch {
    throw new UnsafeUrlError(`host ${host} does not resolve`);
  }
  if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
    throw new UnsafeUrlError(`host ${host} resolves to a private, loopback or link-local address`);
  }
  return url;
}
