import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPublicAddress } from '@/lib/net/ssrf';
import { postJson } from '@/lib/net/post';

const resolveTo = (...addresses: string[]) =>
  (async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) as never;
const strict = { allowInsecure: false };

describe('webhook URL safety (SSRF)', () => {
  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect([a, isPublicAddress(a)]).toEqual([a, true]);
  });

  it('refuses http, IP literals in private ranges, local names, credentials and names resolving privately', async () => {
    await expect(
      assertPublicUrl('http://hooks.example.com/x', { ...strict, resolve: resolveTo('93.184.216.34') }),
    ).rejects.toThrow(/https/);
    await expect(assertPublicUrl('https://127.0.0.1/x', strict)).rejects.toThrow(/private/);
    await expect(assertPublicUrl('https://[::1]/x', strict)).rejects.toThrow(/private/);
    await expect(assertPublicUrl('https://169.254.169.254/latest/meta-data', strict)).rejects.toThrow(/private/);
    await expect(assertPublicUrl('https://localhost/x', strict)).rejects.toThrow(/local/);
    await expect(assertPublicUrl('https://user:pw@hooks.example.com/', strict)).rejects.toThrow(/credentials/);
    await expect(
      assertPublicUrl('https://rebind.example.com/', { ...strict, resolve: resolveTo('93.184.216.34', '10.0.0.5') }),
    ).rejects.toThrow(/resolves to a private/);
    await expect(assertPublicUrl('not a url', strict)).rejects.toThrow(/valid URL/);
    expect(
      (await assertPublicUrl('https://hooks.example.com/x', { ...strict, resolve: resolveTo('93.184.216.34') }))
        .hostname,
    ).toBe('hooks.example.com');
  });

  it('the development switch allows http and loopback', async () => {
    expect((await assertPublicUrl('http://127.0.0.1:9/x', { allowInsecure: true })).port).toBe('9');
    await expect(assertPublicUrl('ftp://127.0.0.1/x', { allowInsecure: true })).rejects.toThrow(/http/);
  });

  it('at delivery time a name resolving to loopback is refused before connecting', async () => {
    const result = await postJson('http://localhost:9/hook', {}, '{}', {
      timeoutMs: 1000,
      allowPrivate: false,
      maxResponseBytes: 100,
    });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/blocked/);
  });
});
