/**
 * SSRF through the API, with production URL rules (no development switch): every way of pointing
 * a webhook at this machine, its network or a metadata service is refused with the field named,
 * and nothing is saved.
 */
import { describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

const suite = useSuite({ env: () => ({ WEBHOOK_ALLOW_INSECURE_URLS: 'false' }) });

const unsafe = [
  'http://hooks.example.com/plain-http',
  'https://127.0.0.1/hook',
  'https://127.1/short-form',
  'https://2130706433/decimal-form',
  'https://0x7f000001/hex-form',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/mapped',
  'https://10.0.0.8/hook',
  'https://172.16.4.4/hook',
  'https://192.168.1.10/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/cgnat',
  'https://0.0.0.0/hook',
  'https://localhost/hook',
  'https://api.localhost/hook',
  'https://user:secret@hooks.example.com/',
  'file:///etc/passwd',
];

describe('webhook URL SSRF through the API', () => {
  it('PATCH /tenant/webhook refuses every local, private and metadata address and keeps the saved URL', async () => {
    const t = await seedTenant({ webhookUrl: null });
    for (const webhookUrl of unsafe) {
      const res = await suite.api('PATCH', '/api/v1/tenant/webhook', { key: t.key, body: { webhookUrl } });
      expect([webhookUrl, res.status, res.body.error?.code, res.body.error?.details?.[0]?.field]).toEqual([
        webhookUrl,
        400,
        'VALIDATION_FAILED',
        'webhookUrl',
      ]);
    }
    expect((await db().tenant.findUniqueOrThrow({ where: { id: t.tenant.id } })).webhookUrl).toBeNull();
  });

  it('a provider cannot provision a tenant with one either; no tenant is created', async () => {
    const owner = await seedTenant();
    const before = await db().tenant.count();
    for (const webhookUrl of unsafe.slice(0, 6)) {
      const res = await suite.api('POST', '/api/v1/provider/tenants', {
        providerKey: owner.providerKey!,
        body: { name: 'Probe', webhookUrl },
      });
      expect([webhookUrl, res.status, res.body.error?.code]).toEqual([webhookUrl, 400, 'VALIDATION_FAILED']);
    }
    expect(await db().tenant.count()).toBe(before);
  });
});
