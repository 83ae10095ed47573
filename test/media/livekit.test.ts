import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessToken, TokenVerifier, TrackSource } from 'livekit-server-sdk';
import { createLiveKitMediaLayer, MediaAuthError, MediaLayerError, type MediaLayer } from '@/lib/media';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import type { PublishSource } from '@/lib/media/types';

let fake: DevMediaServer;
let media: MediaLayer;

beforeAll(async () => {
  fake = await startDevMediaServer();
  media = createLiveKitMediaLayer({ url: fake.url, apiKey: fake.apiKey, apiSecret: fake.apiSecret });
});
afterAll(() => fake.close());

describe('LiveKit media layer against the development media server', () => {
  it('lists rooms and participants with plain data', async () => {
    fake.addParticipant('r1', { identity: 'alice', tracks: [{ sid: 'TR_a', type: 'AUDIO' }] });
    const rooms = await media.listRooms();
    expect(rooms.map((r) => r.name)).toContain('r1');
    expect(rooms[0].createdAt).toBeInstanceOf(Date);
    const participants = await media.listParticipants('r1');
    expect(participants).toEqual([
      expect.objectContaining({
        identity: 'alice',
        tracks: [expect.objectContaining({ sid: 'TR_a', type: 'AUDIO', muted: false })],
      }),
    ]);
    expect(() => JSON.stringify(participants)).not.toThrow();
  });

  it('mutes every audio track except the excepted identities', async () => {
    fake.addParticipant('r2', { identity: 'host', tracks: [{ sid: 'TR_h', type: 'AUDIO' }] });
    fake.addParticipant('r2', {
      identity: 'g1',
      tracks: [
        { sid: 'TR_1', type: 'AUDIO' },
        { sid: 'TR_1v', type: 'VIDEO' },
      ],
    });
    fake.addParticipant('r2', { identity: 'g2', tracks: [{ sid: 'TR_2', type: 'AUDIO', muted: true }] });
    expect(await media.muteAllAudio('r2', new Set(['host']))).toBe(1);
    const room = fake.rooms.get('r2')!;
    expect(room.participants.get('g1')!.tracks.get('TR_1')!.muted).toBe(true);
    expect(room.participants.get('host')!.tracks.get('TR_h')!.muted).toBe(false);
    expect(fake.callsTo('MutePublishedTrack')).toHaveLength(1);
  });

  it('updates, moves and removes participants; sends data', async () => {
    fake.addParticipant('r3', { identity: 'bob' });
    await media.updateParticipant('r3', 'bob', {
      metadata: '{"x":1}',
      grants: { canPublish: false, canSubscribe: true, canPublishData: true },
    });
    expect(fake.rooms.get('r3')!.participants.get('bob')!.metadata).toBe('{"x":1}');
    await media.sendData('r3', { type: 'hello' }, { topic: 'convene.test' });
    const sent = fake.callsTo('SendData').at(-1)!.body;
    expect(sent.topic).toBe('convene.test');
    expect(JSON.parse(Buffer.from(sent.data, 'base64').toString())).toEqual({ type: 'hello' });
    await media.moveParticipant('r3', 'bob', 'r3-breakout');
    expect(fake.rooms.get('r3-breakout')!.participants.has('bob')).toBe(true);
    await media.removeParticipant('r3-breakout', 'bob');
    expect(fake.rooms.get('r3-breakout')!.participants.has('bob')).toBe(false);
  });

  it('deleting a room that is already gone is not an error', async () => {
    fake.addParticipant('r4', { identity: 'x' });
    await media.deleteRoom('r4');
    await media.deleteRoom('r4');
    expect(fake.rooms.has('r4')).toBe(false);
  });

  it('wrong credentials and a server that is down become MediaLayerError', async () => {
    const wrong = createLiveKitMediaLayer({ url: fake.url, apiKey: fake.apiKey, apiSecret: 'not-the-secret' });
    await expect(wrong.listRooms()).rejects.toMatchObject({ name: 'MediaLayerError', status: 401 });
    fake.setDown(true);
    try {
      await expect(media.listRooms()).rejects.toBeInstanceOf(MediaLayerError);
    } finally {
      fake.setDown(false);
    }
  });

  it('mints participant tokens that LiveKit verifies, with grants, identity, metadata and expiry', async () => {
    const jwt = await media.mintParticipantToken({
      identity: 'p_1',
      name: 'Ada',
      roomName: 'room-x',
      ttlSeconds: 600,
      metadata: '{"metaVersion":1}',
      grants: {
        canPublish: true,
        canSubscribe: true,
        canPublishData: false,
        canPublishSources: ['camera', 'microphone'],
      },
    });
    const claims = await new TokenVerifier(fake.apiKey, fake.apiSecret).verify(jwt);
    expect(claims.sub).toBe('p_1');
    expect(claims.name).toBe('Ada');
    expect(claims.metadata).toBe('{"metaVersion":1}');
    expect(claims.video).toMatchObject({
      roomJoin: true,
      room: 'room-x',
      canPublish: true,
      canPublishData: false,
      canPublishSources: ['camera', 'microphone'],
    });
    const exp = (claims as { exp?: number }).exp!;
    expect(exp - Date.now() / 1000).toBeGreaterThan(590);
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(600);
    const verified = await media.verifyParticipantToken(jwt);
    expect(verified).toMatchObject({ identity: 'p_1', roomName: 'room-x' });
    await expect(
      createLiveKitMediaLayer({ url: fake.url, apiKey: fake.apiKey, apiSecret: 'other' }).verifyParticipantToken(jwt),
    ).rejects.toThrow();
  });

  it("mints the token the SDK's AccessToken mints: same header, same claims, a signature LiveKit verifies", async () => {
    const request = {
      identity: 'p_2',
      name: 'Grace Hopper',
      roomName: 'room-y',
      ttlSeconds: 21_600,
      metadata: '{"metaVersion":1,"roomName":"Ünïcode ✓"}',
      grants: {
        canPublish: false,
        canSubscribe: true,
        canPublishData: true,
        canPublishSources: ['screen_share', 'screen_share_audio'] as PublishSource[],
      },
    };
    const sdk = new AccessToken(fake.apiKey, fake.apiSecret, {
      identity: request.identity,
      name: request.name,
      ttl: request.ttlSeconds,
      metadata: request.metadata,
    });
    sdk.addGrant({
      roomJoin: true,
      room: request.roomName,
      canPublish: false,
      canSubscribe: true,
      canPublishData: true,
      canPublishSources: [TrackSource.SCREEN_SHARE, TrackSource.SCREEN_SHARE_AUDIO],
      canUpdateOwnMetadata: false,
    });
    const [theirs, ours] = [await sdk.toJwt(), await media.mintParticipantToken(request)];
    const decode = (jwt: string) =>
      jwt
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    const [theirHeader, theirClaims] = decode(theirs);
    const [ourHeader, ourClaims] = decode(ours);
    expect(ourHeader).toEqual(theirHeader);
    // exp and nbf are whole seconds of the moment each was signed: the same, or one apart.
    expect(Math.abs(ourClaims.nbf - theirClaims.nbf)).toBeLessThanOrEqual(1);
    expect(ourClaims.exp - ourClaims.nbf).toBe(theirClaims.exp - theirClaims.nbf);
    expect({ ...ourClaims, nbf: 0, exp: 0 }).toEqual({ ...theirClaims, nbf: 0, exp: 0 });
    expect(Object.keys(ourClaims)).toEqual(Object.keys(theirClaims));
    expect((await new TokenVerifier(fake.apiKey, fake.apiSecret).verify(ours)).metadata).toBe(request.metadata);
    await expect(new TokenVerifier(fake.apiKey, 'another-secret').verify(ours)).rejects.toThrow();
  });

  it('verifies media-layer webhooks and rejects tampering', async () => {
    const received: { body: string; auth: string | null }[] = [];
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, auth: req.headers.authorization ?? null });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    await fake.sendWebhook(url, {
      event: 'participant_joined',
      room: { name: 'r9', sid: 'RM_9' },
      participant: { identity: 'p9', sid: 'PA_9', joinedAt: '1700000000' },
    });
    server.close();
    const event = await media.receiveWebhook(received[0].body, received[0].auth);
    expect(event).toMatchObject({
      event: 'participant_joined',
      room: { name: 'r9' },
      participant: { identity: 'p9', joinedAt: new Date(1700000000 * 1000) },
    });
    await expect(media.receiveWebhook(received[0].body.replace('p9', 'p8'), received[0].auth)).rejects.toBeInstanceOf(
      MediaAuthError,
    );
    await expect(media.receiveWebhook(received[0].body, null)).rejects.toBeInstanceOf(MediaAuthError);
  });
});
