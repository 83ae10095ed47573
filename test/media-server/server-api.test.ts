/**
 * The development media server's server API and webhooks as LiveKit's: Twirp routes are its own
 * methods only, data sent through the API carries no participant (so clients can tell it from a
 * peer's), and webhooks to a slow receiver go out concurrently, in order within a room.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Room, type RemoteParticipant } from '@livekit/rtc-node';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { createWebhookSender } from '@/media-server/webhooks/sender';
import { mediaToken } from '../support/rtc-node-media';
import { cleanUpWithin, holds } from '../support/until';
import { type ReceivedWebhook, startWebhookReceiver } from '../support/webhook-receiver';

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
    const room = new Room();
    const received: { from: string | undefined; text: string }[] = [];
    room.on('dataReceived', (payload: Uint8Array, from?: RemoteParticipant) =>
      received.push({ from: from?.identity, text: new TextDecoder().decode(payload) }),
    );
    await room.connect(media.url, await mediaToken(media, 'data', identity, { grant: { canPublishData: true } }), {
      autoSubscribe: false,
      dynacast: false,
    });
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
    await holds('both packets at ada', () => ada.received.length === 2);
    // Two senders on two paths (the server's API and Bob's data channel): either may arrive first.
    expect([...ada.received].sort((a, b) => a.text.localeCompare(b.text))).toEqual([
      { from: 'bob', text: 'from bob' },
      { from: undefined, text: 'from the server' },
    ]);
  } finally {
    await Promise.all(
      [ada, bob].map((p) => cleanUpWithin('an rtc-node participant leaving', () => p.room.disconnect())),
    );
  }
});

it('delivers 300 webhooks to a slow receiver 8 at a time, in order within each room', async () => {
  const DELAY_MS = 50;
  const receiver = await startWebhookReceiver(() => ({ status: 200, delayMs: DELAY_MS }));
  const sender = createWebhookSender({
    apiKey: 'k',
    apiSecret: 's'.repeat(32),
    urls: () => [receiver.url],
    log: () => {},
  });
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
    expect(receiver.maxConcurrent).toBe(8);
    // Within a room: in the order sent, and each only once the one before was answered.
    const byRoom = new Map<string, ReceivedWebhook[]>();
    for (const delivery of receiver.received) {
      const room: string = JSON.parse(delivery.body).room.name;
      byRoom.set(room, [...(byRoom.get(room) ?? []), delivery]);
    }
    for (const [room, deliveries] of byRoom) {
      const order = deliveries.map((delivery) => JSON.parse(delivery.body).participant.identity);
      const overlapped = deliveries.filter(
        (d, i) => i > 0 && d.at < (deliveries[i - 1].answeredAt ?? Number.POSITIVE_INFINITY),
      ).length;
      expect({ room, order, overlapped }).toEqual({ room, order: ['p0', 'p1', 'p2'], overlapped: 0 });
    }
    // One at a time this takes 300 × 50 ms = 15 s; 8 at a time about 2 s.
    expect(elapsed).toBeLessThan(300 * DELAY_MS * 0.5);
  } finally {
    await receiver.close();
  }
});
