/**
 * The whole app with the development media server as its media layer, for the call UI specs
 * that need a real call: a seeded database of its own, the production build, the live tenant's key.
 */
import { startDevMediaServer } from '../../media-server';
import { createSeededDatabase, startAppServer } from './app';

export type LiveApp = Awaited<ReturnType<typeof startLiveApp>>;

export async function startLiveApp() {
  const media = await startDevMediaServer();
  const database = await createSeededDatabase(process.env.E2E_POSTGRES_ADMIN_URL!);
  const { liveTenant } = JSON.parse(database.seed) as { liveTenant: { apiKey: string } };
  const app = await startAppServer(database.url, { ...media.env(), LOG_LEVEL: 'warn' });
  media.setWebhookUrls([`${app.baseUrl}/api/media/webhook`]);

  /** A call with the live tenant's key, or with a participant token (`bearer`) when given. */
  async function api(method: string, path: string, body?: unknown, bearer?: string) {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : { 'x-api-key': liveTenant.apiKey }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  }

  return {
    baseUrl: app.baseUrl,
    /** The media layer, for a spec that talks to it directly (its server API, a raw client). */
    media,
    api,
    /** A new room and a join URL for each person given (externalUserId, displayName, role, lang). */
    async room(
      people: { id: string; name: string; role?: 'HOST' | 'ATTENDEE'; lang?: string }[],
      options: Record<string, unknown> = {},
    ) {
      const room = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'e2e', name: 'Weekly sync', ...options }))
        .body as { id: string };
      const joinUrls: string[] = [];
      for (const p of people) {
        const joined = await api('POST', `/api/v1/rooms/${room.id}/join`, {
          externalUserId: p.id,
          displayName: p.name,
          role: p.role ?? 'ATTENDEE',
          ...(p.lang ? { lang: p.lang } : {}),
        });
        if (joined.status !== 200 && joined.status !== 201) throw new Error(`join: ${JSON.stringify(joined.body)}`);
        joinUrls.push(joined.body.joinUrl ?? joined.body.admissionUrl);
      }
      return { id: room.id, joinUrls };
    },
    async close() {
      await app.stop();
      await media.close();
      await database.drop();
    },
  };
}
