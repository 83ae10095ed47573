import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPublicAddress } from '@/lib/net/ssrf';

// One classifier for every spelling: an IPv6 transition form is judged by the IPv4 address it
// carries; reserved IPv6 ranges are refused. Through the URL parser too (it re-spells hosts).
const refused: [string, string][] = [
  ['IPv4-compatible loopback', '::127.0.0.1'],
  ['IPv4-compatible metadata, hex', '::a9fe:a9fe'],
  ['IPv4-compatible private', '::10.0.0.1'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped metadata, hex', '::ffff:a9fe:a9fe'],
  ['IPv4-mapped, long form', '0:0:0:0:0:ffff:7f00:1'],
  ['IPv4-translated loopback', '::ffff:0:127.0.0.1'],
  ['IPv4-translated private, hex', '::ffff:0:c0a8:101'],
  ['6to4 of loopback', '2002:7f00:1::'],
  ['6to4 of metadata', '2002:a9fe:a9fe::1'],
  ['6to4 of 10/8', '2002:0a00:0001:1234::5'],
  ['NAT64 well-known of loopback', '64:ff9b::127.0.0.1'],
  ['NAT64 well-known of metadata, hex', '64:ff9b::a9fe:a9fe'],
  ['NAT64 local-use', '64:ff9b:1::a9fe:a9fe'],
  ['NAT64 local-use of a public address', '64:ff9b:1::808:808'],
  ['Teredo, server loopback', '2001:0:7f00:1::'],
  ['Teredo, client 10.0.0.1 (inverted)', '2001:0:808:808::f5ff:fffe'],
  ['site-local', 'fec0::1'],
  ['site-local upper', 'feff::1'],
  ['discard-only', '100::1'],
  ['unspecified', '::'],
  ['loopback', '::1'],
  ['unique local', 'fd12:3456::1'],
  ['link-local with zone', 'fe80::1%eth0'],
  ['multicast', 'ff02::1'],
  ['documentation', '2001:db8::1'],
  ['6to4 relay anycast (IPv4)', '192.88.99.1'],
  ['benchmarking IPv4', '198.18.0.1'],
  ['IPv4 loopback', '127.0.0.1'],
  ['IPv4 broadcast', '255.255.255.255'],
];
const allowed: [string, string][] = [
  ['public IPv4', '8.8.8.8'],
  ['public IPv6', '2606:4700:4700::1111'],
  ['6to4 of a public address', '2002:808:808::1'],
  ['NAT64 well-known of a public address', '64:ff9b::8.8.8.8'],
  ['IPv4-mapped public', '::ffff:8.8.8.8'],
  ['Teredo with public server and client', '2001:0:808:808::f7f7:f7f7'],
];

describe('isPublicAddress', () => {
  it.each(refused)('refuses %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(allowed)('allows %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it('refuses what is not an address at all', () => {
    for (const v of ['', 'localhost', '1.2.3', ':::', '2001:db8::g']) expect(isPublicAddress(v)).toBe(false);
  });
});

describe('assertPublicUrl (save time) with every IPv6 spelling as a URL host', () => {
  const v6 = refused.filter(([, a]) => a.includes(':') && !a.includes('%'));
  it.each(v6)('refuses https://[%s]', async (_, address) => {
    await expect(assertPublicUrl(`https://[${address}]/hook`, { allowInsecure: false })).rejects.toThrow(
      /private|loopback|link-local/,
    );
  });
  it('refuses a name that resolves to a transition form (connect-time rule, same classifier)', async () => {
    const resolve = (async () => [{ address: '2002:7f00:1::', family: 6 }]) as never;
    await expect(assertPublicUrl('https://hooks.example.com/', { allowInsecure: false, resolve })).rejects.toThrow(
      /resolves to a private/,
    );
  });
  it('allows https://[2606:4700:4700::1111]', async () => {
    await expect(
      assertPublicUrl('https://[2606:4700:4700::1111]/hook', { allowInsecure: false }),
    ).resolves.toBeInstanceOf(URL);
  });
});
