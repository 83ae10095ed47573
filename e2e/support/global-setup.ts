/**
 * The console journeys need the whole app: a real PostgreSQL database (migrated, seeded with
 * console users), the production build served by `next start`, and its queue workers delivering
 * webhooks. The hosted-UI specs use Playwright's webServer instead.
 */
import { locatePostgres } from '../../test/support/postgres';
import { createSeededDatabase, startNextServer } from './app';

export default async function globalSetup() {
  const postgres = await locatePostgres();
  const database = await createSeededDatabase(postgres.adminUrl).catch(async (err) => {
    await postgres.stop();
    throw err;
  });
  const server = await startNextServer(database.url, { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_MAX_ATTEMPTS: '1' }).catch(async (err) => {
    await database.drop();
    await postgres.stop();
    throw err;
  });
  process.env.E2E_POSTGRES_ADMIN_URL = postgres.adminUrl;
  process.env.CONSOLE_BASE_URL = server.baseUrl;
  process.env.CONSOLE_DATABASE_URL = database.url;
  process.env.CONSOLE_SEED = database.seed;

  return async () => {
    await server.stop();
    await database.drop();
    await postgres.stop();
  };
}
