/** A fresh tenant for a spec, made through the provider API, and its REST calls with the tenant's key. */
import { expect } from '@playwright/test';

const seed = JSON.parse(process.env.CONSOLE_SEED ?? '{}') as { providerKey: string };

export interface TenantApi {
  /** A call with the tenant's key; the body parsed when there is one. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** A GET with the tenant's key, answered as it comes (a download, say). */
  get(path: string): Promise<Response>;
  /** A join URL for a person in a room (externalUserId: the name in lower case). */
  joinUrl(roomId: string, name: string, role?: string): Promise<string>;
  /** A new room with these settings; its id. */
  room(settings?: Record<string, unknown>): Promise<string>;
}

/**
 * Call in `test.beforeAll` (or in a test); the returned object's methods work once it resolved.
 * `settings`: more of the provider API's tenant fields (a `plan` for features such as captions,
 * `branding`).
 */
export async function createTenant(name: string, settings: Record<string, unknown> = {}): Promise<TenantApi> {
  const base = process.env.CONSOLE_BASE_URL!;
  const res = await fetch(`${base}/api/v1/provider/tenants`, {
    method: 'POST',
    headers: { 'x-provider-key': seed.providerKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `${name} ${Date.now()}`, ...settings }),
  });
  expect(res.status).toBe(201);
  const apiKey = (await res.json()).apiKey.plainTextKey as string;
  const api: TenantApi['api'] = async (method, path, body) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null };
  };
  return {
    api,
    get: (path) => fetch(`${base}${path}`, { headers: { 'x-api-key': apiKey } }),
    async joinUrl(roomId, name, role = 'ATTENDEE') {
      const joined = await api('POST', `/api/v1/rooms/${roomId}/join`, {
        externalUserId: name.toLowerCase(),
        displayName: name,
        role,
      });
      expect(joined.status).toBe(200);
      return joined.body.joinUrl as string;
    },
    async room(settings = {}) {
      const created = await api('POST', '/api/v1/rooms', {
        name: `${name} room`,
        createdByExternalId: 'e2e',
        ...settings,
      });
      expect(created.status).toBe(201);
      return created.body.id as string;
    },
  };
}
