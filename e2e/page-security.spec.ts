import { test, expect } from '@playwright/test';

/**
 * Every page carries the security headers (lib/http/page-security.ts, set by proxy.ts), the call
 * UI included; and a write to a page (a console server action) must carry a same-origin Origin
 * or it is refused with 403 before any action runs. Against the console suite's server (global
 * setup), which has a database.
 */
const base = () => process.env.CONSOLE_BASE_URL!;

for (const path of ['/join', '/join/waiting', '/console/sign-in', '/docs']) {
  test(`${path} sends the security headers and a script CSP`, async ({ request }) => {
    const res = await request.get(`${base()}${path}`, { maxRedirects: 0 });
    const h = res.headers();
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['referrer-policy']).toBe('no-referrer');
    expect(h['content-security-policy']).toContain("script-src 'self'");
    expect(h['content-security-policy']).toContain("object-src 'none'");
    expect(h['content-security-policy']).toContain("base-uri 'self'");
    expect(h['content-security-policy']).toMatch(/frame-ancestors/);
    if (!path.startsWith('/join')) expect(h['x-frame-options']).toBe('DENY');
  });
}

test('a console server action with a foreign, missing or forged Origin is 403, never 500', async ({ request }) => {
  const url = `${base()}/console/keys`;
  const action = {
    'next-action': '0000000000000000000000000000000000000000',
    'content-type': 'text/plain;charset=UTF-8',
  };
  const host = new URL(base()).host;
  const cases: Record<string, string>[] = [
    { origin: 'https://evil.example' },
    {},
    { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
    { origin: 'null' },
  ];
  for (const headers of cases) {
    const res = await request.post(url, { headers: { ...action, ...headers }, data: '[]' });
    expect([JSON.stringify(headers), res.status()]).toEqual([JSON.stringify(headers), 403]);
  }
  // Same origin passes the check (the made-up action id is then Next's own answer, not ours).
  const same = await request.post(url, { headers: { ...action, origin: `http://${host}` }, data: '[]' });
  expect(same.status()).not.toBe(403);
});

test('console sign-in: a new X-Forwarded-For per attempt does not reset the per-account limit', async ({
  playwright,
}) => {
  // A made-up account: the limit counts attempts per account whether or not it exists.
  const email = `nobody-${Date.now()}@example.com`;
  const ctx = await playwright.request.newContext({ baseURL: base() });
  const attempt = async (i: number) => {
    const { csrfToken } = await (await ctx.get('/api/auth/csrf')).json();
    const res = await ctx.post('/api/auth/callback/credentials', {
      headers: { 'x-forwarded-for': `203.0.113.${i}` },
      form: { csrfToken, email, password: `guess-${i}`, json: 'true' },
      maxRedirects: 0,
    });
    return `${res.headers().location ?? ''} ${await res.text()}`;
  };
  const answers: string[] = [];
  for (let i = 0; i < 12; i++) answers.push(await attempt(i + 1));
  expect(answers.slice(0, 10).every((a) => a.includes('CredentialsSignin'))).toBe(true);
  expect(answers.slice(10).every((a) => a.includes('TooManyAttempts'))).toBe(true);
  await ctx.dispose();
});

test('GET /rooms/{id}/info is limited per client address under the production server; X-Forwarded-For is not believed', async ({
  request,
}) => {
  const statuses: number[] = [];
  const limits = new Set<string>();
  await Promise.all(
    Array.from({ length: 16 }, async (_, i) => {
      const res = await request.get(`${base()}/api/v1/rooms/no-such-room/info`, {
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
      statuses.push(res.status());
      limits.add(res.headers()['x-ratelimit-limit'] ?? '');
    }),
  );
  expect(limits).toEqual(new Set(['10']));
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
  expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(1);
});

test('a path that is not valid percent-encoding is 400 on a page and the API’s 404 envelope, never 500', async ({
  request,
}) => {
  for (const path of ['/call-assets/%ff', '/join/%e0%a4%a']) {
    expect([path, (await request.get(`${base()}${path}`)).status()]).toEqual([path, 400]);
  }
  for (const path of ['/api/v1/rooms/%ff', '/api/v1/rooms/%ff/info', '/api/v1/recordings/%c3%28/download']) {
    const res = await request.get(`${base()}${path}`);
    expect([path, res.status()]).toEqual([path, 404]);
    expect((await res.json()).error).toMatchObject({ code: 'NOT_FOUND', requestId: expect.stringMatching(/^req_/) });
  }
  // A percent sign that decodes passes through to the route as before (which asks for a key).
  const decodable = await request.get(`${base()}/api/v1/rooms/no%2Dsuch%2Droom`);
  expect([decodable.status(), (await decodable.json()).error.code]).toEqual([401, 'UNAUTHENTICATED']);
});
