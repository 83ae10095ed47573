/**
 * The console journeys and the real calls need the whole app: a real PostgreSQL database
 * (migrated, seeded with console users), the development media server (real WebRTC, its
 * webhooks signed to the app), the production build served by the production server (`server/main.ts`), and its queue
 * workers delivering webhooks. The hosted-UI specs that need no call use Playwright's webServer.
 */
import pg from 'pg';
import { startDevMediaServer, type DevMediaServer } from '../../media-server';
import { locatePostgres } from '../../test/support/postgres';
import { startOpenAiStub } from '../../test/notes/support/openai-server';
import { createSeededDatabase, startAppServer } from './app';

export default async function globalSetup() {
  const postgres = await locatePostgres();
  const database = await createSeededDatabase(postgres.adminUrl).catch(async (err) => {
    await postgres.stop();
    throw err;
  });
  const media = await startDevMediaServer({ log: (msg) => console.log(`[media] ${msg}`) });
  await mirrorSeededPresence(database.url, media);
  // An OpenAI-compatible speech-to-text and chat service, as an installation that runs captions,
  // transcripts and summaries has (captions.spec.ts and notes.spec.ts run the captions worker
  // themselves; without one, captions start is refused). It tells the notes spec's voices apart.
  const stt = await startOpenAiStub();
  const server = await startAppServer(database.url, {
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    WEBHOOK_MAX_ATTEMPTS: '1',
    STT_BASE_URL: stt.baseUrl,
    LLM_BASE_URL: stt.baseUrl,
    ...media.env(),
  }).catch(async (err) => {
    await stt.close();
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
  // Where specs that run media-layer clients of their own (the captions worker) reach the media server.
  process.env.E2E_MEDIA_ENV = JSON.stringify(media.env());

  return async () => {
    await server.stop();
    await stt.close();
    await media.close();
    await database.drop();
    await postgres.stop();
  };
}

/**
 * The seed writes people as connected to live rooms without a browser; the media layer is told the
 * same, so the app's reconciliation with it (which ends rooms the media layer has no one in) agrees.
 */
async function mirrorSeededPresence(databaseUrl: string, media: DevMediaServer) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ mediaRoomName: string; mediaIdentity: string; displayName: string }>(
      `SELECT r."mediaRoomName", p."mediaIdentity", p."displayName" FROM "Participant" p JOIN "Room" r ON r.id = p."roomId" WHERE r.status = 'ACTIVE' AND p."connectionState" = 'CONNECTED'`,
    );
    for (const row of rows)
      media.addParticipant(row.mediaRoomName, { identity: row.mediaIdentity, name: row.displayName });
  } finally {
    await client.end();
  }
}
