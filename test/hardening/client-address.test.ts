import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { clientAddress, installPeerAddressHook, PEER_ADDRESS_HEADER } from '@/lib/net/client-address';

// X-Forwarded-For is trusted only from the proxies TRUSTED_PROXIES names, never by default; the
// peer address comes from the socket and a client cannot forge it.
const saved = { ...process.env };
beforeAll(() => {
  process.env.DATABASE_URL ??= 'postgresql://u@127.0.0.1:5432/db';
  process.env.CONVENE_MASTER_KEY ??= 'a'.repeat(64);
});
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});
const withProxies = (value: string | undefined) => {
  if (value === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = value;
  resetConfigForTests();
};

describe('clientAddress', () => {
  it('by default ignores X-Forwarded-For: the peer is the client', () => {
    withProxies(undefined);
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: '203.0.113.9', 'x-forwarded-for': '1.2.3.4' })).toBe('203.0.113.9');
  });
  it('reads X-Forwarded-For only when the peer is a trusted proxy, right-most untrusted hop', () => {
    withProxies('10.0.0.0/8, ::1');
    expect(
      clientAddress({ [PEER_ADDRESS_HEADER]: '10.1.2.3', 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.5' }),
    ).toBe('198.51.100.7');
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: '::1', 'x-forwarded-for': '198.51.100.8' })).toBe('198.51.100.8');
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: '203.0.113.9', 'x-forwarded-for': '198.51.100.7' })).toBe(
      '203.0.113.9',
    );
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: '::ffff:10.1.2.3', 'x-forwarded-for': 'garbage' })).toBe('10.1.2.3');
  });
  it('the peer header is set from the socket, overwriting what a client sent', async () => {
    withProxies(undefined);
    installPeerAddressHook();
    let seen: string | undefined;
    const server = http.createServer((req, res) => {
      seen = clientAddress(req.headers as Record<string, string>);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await fetch(`http://127.0.0.1:${port}/`, {
      headers: { [PEER_ADDRESS_HEADER]: '1.2.3.4', 'x-forwarded-for': '5.6.7.8' },
    });
    await new Promise((r) => server.close(r));
    expect(seen).toBe('127.0.0.1');
  });
});
