import { createHash, createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccessToken } from 'livekit-server-sdk';
import { useSuite, seedTenant } from '../support/suite';
import { db } from '@/lib/db';

// Participant tokens and media webhooks are the media layer's JWTs: only HS256 (what LiveKit
// signs with), only our media credentials, and a participant token's room and identity claims
// must both match our participant row.
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let roomA: { id: string; mediaRoomName: string };
let roomB: { id: string; mediaRoomName: string };
let ada: { id: string; mediaIdentity: string };
let adaToken: string;

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
/** A JWT signed by hand, so the algorithm can be any HMAC (or none). */
function signJwt(alg: 'HS256' | 'HS384' | 'HS512' | 'none', claims: Record<string, unknown>, secret: string) {
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  if (alg === 'none') return `${head}.`;
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg];
  return `${head}.${createHmac(hash, secret).update(head).digest('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);
const claimsFor = (identity: string, room: string) => ({
  iss: suite.media.apiKey,
  sub: identity,
  nbf: now() - 5,
  exp: now() + 600,
  video: { room, roomJoin: true },
});
const me = (token: string) => suite.api('GET', '/api/v1/me', { headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
  roomA = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
  roomB = (await suite.api('POST', '/api/v1/rooms', { key: t.key, body: { createdByExternalId: 'u' } })).body;
  const joined = (
    await suite.api('POST', `/api/v1/rooms/${roomA.id}/join`, {
      key: t.key,
      body: { externalUserId: 'ada', displayName: 'Ada' },
    })
  ).body;
  ada = joined.participant;
  adaToken = joined.token;
});

describe('participant tokens', () => {
  it('the credential the guard reads in one statement is what Prisma reads: every field, dates as dates', async () => {
    const { authenticateParticipant } = await import('@/lib/http/participant-auth');
    const credential = await authenticateParticipant(`Bearer ${adaToken}`);
    const {
      room: { tenant, ...room },
      ...participant
    } = await db().participant.findUniqueOrThrow({
      where: { id: ada.id },
      include: { room: { include: { tenant: true } } },
    });
    expect(credential).toStrictEqual({ participant, room, tenant });
    expect(credential.participant.createdAt).toBeInstanceOf(Date);
  });

  it('the token we minted works, and so does a hand-made HS256 one with the same claims', async () => {
    expect((await me(adaToken)).status).toBe(200);
    expect(
      (await me(signJwt('HS256', claimsFor(ada.mediaIdentity, roomA.mediaRoomName), suite.media.apiSecret))).status,
    ).toBe(200);
  });

  it.each(['HS384', 'HS512', 'none'] as const)('a token signed %s with the right secret is 401', async (alg) => {
    const res = await me(signJwt(alg, claimsFor(ada.mediaIdentity, roomA.mediaRoomName), suite.media.apiSecret));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('a correctly signed token whose room claim is another room is 401', async () => {
    const token = new AccessToken(suite.media.apiKey, suite.media.apiSecret, { identity: ada.mediaIdentity, ttl: 600 });
    token.addGrant({ roomJoin: true, room: roomB.mediaRoomName });
    expect((await me(await token.toJwt())).status).toBe(401);
  });

  it('a correctly signed token with no room claim is 401', async () => {
    expect(
      (
        await me(
          signJwt(
            'HS256',
            { ...claimsFor(ada.mediaIdentity, roomA.mediaRoomName), video: { roomJoin: true } },
            suite.media.apiSecret,
          ),
        )
      ).status,
    ).toBe(401);
  });

  it('the published devkey/secret pair cannot sign for a participant', async () => {
    const token = new AccessToken('devkey', 'secret', { identity: ada.mediaIdentity, ttl: 600 });
    token.addGrant({ roomJoin: true, room: roomA.mediaRoomName });
    expect((await me(await token.toJwt())).status).toBe(401);
  });
});

describe('media webhooks', () => {
  const hook = () => `${suite.app.baseUrl}/api/media/webhook`;
  async function send(authorization: string, body: string) {
    const res = await fetch(hook(), {
      method: 'POST',
      headers: { 'content-type': 'application/webhook+json', authorization },
      body,
    });
    return res.status;
  }
  const started = (id: string) =>
    JSON.stringify({
      id,
      event: 'room_started',
      createdAt: String(now()),
      room: { name: roomB.mediaRoomName, sid: 'RM_forged' },
    });
  const sha = (body: string) => createHash('sha256').update(body).digest('base64');

  it('signed with the published devkey/secret pair: 401, nothing changes', async () => {
    const res = await suite.media.sendWebhook(
      hook(),
      { event: 'room_started', room: { name: roomB.mediaRoomName, sid: 'RM_forged' } },
      { apiKey: 'devkey', apiSecret: 'secret' },
    );
    expect(res.status).toBe(401);
    expect((await db().room.findUniqueOrThrow({ where: { id: roomB.id } })).status).toBe('WAITING');
  });

  it('signed with another key id but our secret: 401', async () => {
    const res = await suite.media.sendWebhook(
      hook(),
      { event: 'room_started', room: { name: roomB.mediaRoomName } },
      { apiKey: 'APIsomeoneelse', apiSecret: suite.media.apiSecret },
    );
    expect(res.status).toBe(401);
  });

  it.each(['HS512', 'none'] as const)('signed %s: 401', async (alg) => {
    const body = started(`EV_${alg}`);
    const jwt = signJwt(
      alg,
      { iss: suite.media.apiKey, nbf: now() - 5, exp: now() + 600, sha256: sha(body) },
      suite.media.apiSecret,
    );
    expect(await send(jwt, body)).toBe(401);
    expect((await db().room.findUniqueOrThrow({ where: { id: roomB.id } })).status).toBe('WAITING');
  });

  it('the same body signed HS256 with our credentials is accepted (the test can pass)', async () => {
    const body = started('EV_hs256');
    const jwt = signJwt(
      'HS256',
      { iss: suite.media.apiKey, nbf: now() - 5, exp: now() + 600, sha256: sha(body) },
      suite.media.apiSecret,
    );
    expect(await send(jwt, body)).toBe(200);
    expect((await db().room.findUniqueOrThrow({ where: { id: roomB.id } })).status).toBe('ACTIVE');
  });
});
