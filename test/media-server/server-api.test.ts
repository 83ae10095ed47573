/**
 * The development media server's server API and webhooks as LiveKit's: Twirp routes are its own
 * methods only, data sent through the API carries no participant (so clients can tell it from a
 * peer's), and webhooks to a slow receiver go out concurrently, in order within a room.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Room, type RemoteParticipant } from '@livekit/rtc-node';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { createWebhookSender } from '@/media-server/webhooks/sender';
import { cleanUpWithin, until } from '../support/until';

let media: DevMediaServer;

beforeAll(async () => {
  media = await startDevMediaServer();
});
afterAll(async () => {
  await media?.close();
});

it('answers 404 bad_route for names that are properties of every object, not methods', async () => {
  const at = new AccessToken(media.apiKey, media.apiSecret);
  at.addGrant({ roomCreate: true, roomList: true, roomAdmin: true, room: 'r' });
  const authorization = `Bearer ${await at.toJwt()}`;
  for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    const res = await fetch(`${media.httpUrl}/twirp/livekit.RoomService/${method}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{"room":"r"}',
    });
    expect({ method, status: res.status, code: (await res.json()).code }).toEqual({
      method,
      status: 404,
      code: 'bad_route',
    });
  }
  // A real method still answers.
  expect(await new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret).listRooms()).toEqual([]);
});

it('sends data from the server API with no participant, and a peer’s data with its sender', async () => {
  const connect = async (identity: string) => {
    const at = new AccessToken(media.apiKey, media.apiSecret, { identity });
    at.addGrant({ roomJoin: true, room: 'data', canPublishData: true });
    const room = new Room();
    const received: { from: string | undefined; text: string }[] = [];
    room.on('dataReceived', (payload: Uint8Array, from?: RemoteParticipant) =>
      received.push({ from: from?.identity, text: new TextDecoder().decode(payload) }),
    );
    await room.connect(media.url, await at.toJwt(), { autoSubscribe: false, dynacast: false });
    return { room, received };
  };
  const [ada, bob] = await Promise.all([connect('ada'), connect('bob')]);
  try {
    await new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret).sendData(
      'data',
      new TextEncoder().encode('from the server'),
      1, // RELIABLE
      { topic: 'convene.polls' },
    );
    await bob.room.localParticipant!.publishData(new TextEncoder().encode('from bob'), { reliable: true });
    await until(() => (ada.received.length === 2 ? true : undefined), 'both packets at ada');
    expect(ada.received).toEqual([
      { from: undefined, text: 'from the server' },
      { from: 'bob', text: 'from bob' },
    ]);
  } finally {
    await Promise.all(
      [ada, bob].map((p) => cleanUpWithin('an rtc-node participant leaving', () => p.room.disconnect())),
    );
  }
});

it('delivers 300 webhooks to a slow receiver 8 at a time, in order within each room', async () => {
  const DELAY_MS = 50;
  let inFlight = 0;
  let maxInFlight = 0;
  /** Per room, the identities in the order their deliveries arrived, and whether one overlapped. */
  const arrivals = new Map<string, string[]>();
  const busyRooms = new Set<string>();
  let overlapped = 0;
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const event = JSON.parse(body);
      const room: string = event.room.name;
      if (busyRooms.has(room)) overlapped++;
      busyRooms.add(room);
      arrivals.set(room, [...(arrivals.get(room) ?? []), event.participant.identity]);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        busyRooms.delete(room);
        res.writeHead(200).end();
      }, DELAY_MS);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/`;
  const sender = createWebhookSender({ apiKey: 'k', apiSecret: 's'.repeat(32), urls: () => [url], log: () => {} });
  try {
    const started = Date.now();
    for (let i = 0; i < 3; i++)
      for (let r = 0; r < 100; r++)
        void sender.emit({
          event: 'participant_left',
          room: { name: `room-${r}` },
          participant: { identity: `p${i}` },
        });
    await sender.idle();
    const elapsed = Date.now() - started;

    expect(sender.sent.length).toBe(300);
    expect(maxInFlight).toBe(8);
    expect(overlapped).toBe(0);
    for (const [room, order] of arrivals) expect({ room, order }).toEqual({ room, order: ['p0', 'p1', 'p2'] });
    // One at a time this takes 300 × 50 ms = 15 s; 8 at a time about 2 s.
    expect(elapsed).toBeLessThan(300 * DELAY_MS * 0.5);
  } finally {
    receiver.close();
  }
});
