import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './db';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { apiClient, baseTestEnv, startApp, type Api, type AppProcess } from './app';
import { resetConfigForTests } from '@/lib/config';
import { disconnectDb, db } from '@/lib/db';
import { createProviderWithKey, provisionTenant, type ProvisionTenantInput } from '@/lib/domain/tenants';

export interface Suite {
  /** The development media server the app talks to (with its inspection and fault API). */
  media: DevMediaServer;
  database: TestDatabase;
  app: AppProcess;
  api: Api;
  env: Record<string, string>;
}

/**
 * One isolated environment per test file: its own database, its own app process over HTTP,
 * its own development media server,
 * and this process pointed at the same database so tests can seed and inspect rows directly.
 */
export function useSuite(opts: { env?: () => Record<string, string> | Promise<Record<string, string>> } = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    suite.media = await startDevMediaServer();
    suite.database = await createTestDatabase();
    suite.env = baseTestEnv(suite.database.url, { ...suite.media.env(), ...((await opts.env?.()) ?? {}) });
    Object.assign(process.env, suite.env);
    resetConfigForTests();
    await disconnectDb();
    suite.app = await startApp(suite.env);
    suite.api = apiClient(suite.app.baseUrl);
  }, 60_000);
  afterAll(async () => {
    try {
      await suite.app?.stop();
      await suite.media?.close();
      await disconnectDb();
    } finally {
      await suite.database?.drop(); // even when setup failed half-way: leave nothing behind
    }
  }, 60_000);
  return suite;
}

/** Seeds a provider and a tenant (live unless isTestMode) and returns their plaintext keys. */
export async function seedTenant(input: Partial<ProvisionTenantInput> = {}) {
  return db().$transaction(async (tx) => {
    const provider = input.providerId
      ? { provider: await tx.provider.findUniqueOrThrow({ where: { id: input.providerId } }), plainTextKey: undefined }
      : await createProviderWithKey('Test Provider', { tx });
    const t = await provisionTenant({ name: 'Test Tenant', ...input, providerId: provider.provider.id }, { tx });
    return { ...t, provider: provider.provider, providerKey: provider.plainTextKey, key: t.plainTextKey };
  });
}
