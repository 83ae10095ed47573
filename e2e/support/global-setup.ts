/**
 * The console journeys and the real calls need the whole app: a real PostgreSQL database
 * (migrated, seeded with console users), the development media server (real WebRTC, its
 * webhooks signed to the app), the production build served by `next start`, and its queue
 * workers delivering webhooks. The hosted-UI specs that need no call use Playwright's webServer.
 */
import { startDevMediaServer } from '../../lib/media/dev-server';
import { locatePostgres } from '../../test/support/postgres';
import { createSeededDatabase, startNextServer } from './app';

export default async function globalSetup() {
  const postgres = await locatePostgres();
  const database = await createSeededDatabase(postgres.adminUrl).catch(async (err) => {
    await postgres.stop();
    throw err;
  });
  const media = await startDevMediaServer({ log: (msg) => console.log(`[media] ${msg}`) });
  const server = await startNextServer(database.url, { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_MAX_ATTEMPTS: '1', ...media.env() }).catch(async (err) => {
    await media.close();
    await database.drop();
    await postgres.stop();
    throw err;
  });
  media.setWebhookUrls([`${server.baseUrl}/api/media/webhook`]);
  process.env.E2E_POSTGRES_ADMIN_URL = postgres.adminUrl;
  process.env.CONSOLE_BASE_URL = server.baseUrl;
  process.env.CONSOLE_DATABASE_URL = database.url;
  process.env.CONSOLE_SEED = database.seed;

  return async () => {
    await server.stop();
    await media.close();
    await database.drop();
    await postgres.stop();
  };
}
