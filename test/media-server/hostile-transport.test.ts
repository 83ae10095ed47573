/**
 * A hostile client at the transport level must not end anyone else's call. The media server runs
 * as its own process (media-server/main.ts), so a crash shows as the process exiting instead of
 * taking the test runner with it. Each test attacks with a raw TCP socket, then checks that a
 * bystander — a participant connected over signaling in another room — is still connected and
 * that the Twirp server API still answers.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RoomServiceClient } from 'livekit-server-sdk';
import { WebSocket } from 'ws';
import { SignalResponse } from '@livekit/protocol';
import { type MediaServerProcess, spawnMediaServer } from '../support/media-server-process';
import { mediaToken } from '../support/rtc-node-media';
import { until } from '../support/until';

let media: MediaServerProcess;
let bystander: WebSocket;

const token = (room: string, identity: string) => mediaToken(media, room, identity);

beforeEach(async () => {
  media = await spawnMediaServer({ apiKey: 'hostile_key', apiSecret: 'hostile-transport-test-secret-0123456789' });

  bystander = new WebSocket(`${media.url}/rtc?access_token=${await token('bystanders', 'ada')}`);
  bystander.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    bystander.once('message', (data) => {
      const res = SignalResponse.fromBinary(new Uint8Array(data as Buffer));
      if (res.message.case === 'join') resolve();
      else reject(new Error(`expected a join response, got ${res.message.case}`));
    });
    bystander.once('error', reject);
  });
});

afterEach(async () => {
  bystander.close();
  await media.stop();
});

/** The server survived: still running, the bystander still in their room, the API answering. */
async function expectBystanderUnharmed() {
  // Give a crash (an unhandled error event fires on the next tick) time to happen.
  await new Promise((r) => setTimeout(r, 300));
  expect(media.exited, `media server: ${media.output}`).toBeUndefined();
  expect(bystander.readyState).toBe(WebSocket.OPEN);
  const api = new RoomServiceClient(`http://127.0.0.1:${media.port}`, media.apiKey, media.apiSecret);
  const participants = await api.listParticipants('bystanders');
  expect(participants.map((p) => p.identity)).toEqual(['ada']);
}

/** A raw socket that completed the WebSocket handshake for /rtc with a valid token. */
async function upgradedSocket(room: string, identity: string) {
  const socket = net.connect(media.port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `GET /rtc?access_token=${await token(room, identity)} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  let head = '';
  await until(() => {
    head += socket.read()?.toString('latin1') ?? '';
    return head.includes('\r\n\r\n') ? true : undefined;
  }, 'the 101 response');
  expect(head).toMatch(/^HTTP\/1\.1 101/);
  return socket;
}

function closed(socket: net.Socket) {
  return until(() => (socket.destroyed || socket.readableEnded ? true : undefined), 'the socket to close', 5000);
}

it('a WebSocket frame with RSV1 set (no extension negotiated) closes that connection only', async () => {
  const socket = await upgradedSocket('attack', 'mallory');
  socket.resume();
  socket.write(Buffer.from('c18000000000', 'hex'));
  await closed(socket);
  await expectBystanderUnharmed();
});

it('a client that never answers the close handshake does not hold up shutdown', async () => {
  await upgradedSocket('attack', 'mallory'); // reads nothing more and sends no close frame
  const asked = Date.now();
  media.child.kill('SIGTERM');
  await until(() => media.exited, 'the media server to stop', 5000);
  expect(Date.now() - asked).toBeLessThan(3000);
});

it('a WebSocket message over the size limit closes that connection only', async () => {
  const socket = await upgradedSocket('attack', 'mallory');
  socket.resume();
  // A binary frame announcing 4 GiB (64-bit length), masked: refused from the header alone.
  socket.write(Buffer.from('82ff0000000100000000' + '00000000', 'hex'));
  await closed(socket);
  await expectBystanderUnharmed();
});

it('a signaling message of 2 MiB is refused (maxPayload), not buffered', async () => {
  const ws = new WebSocket(`${media.url}/rtc?access_token=${await token('attack', 'mallory')}`);
  const closeCode = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('error', () => undefined);
  await new Promise((r) => ws.once('open', r));
  ws.send(Buffer.alloc(2 * 1024 * 1024));
  expect(await closeCode).toBe(1009); // message too big
  await expectBystanderUnharmed();
});

it('an unauthenticated upgrade followed by a TCP reset', async () => {
  for (let i = 0; i < 5; i++) {
    const socket = net.connect(media.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      'GET /rtc?access_token=not-a-token HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n' +
        'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    socket.resetAndDestroy();
  }
  await expectBystanderUnharmed();
});

it('a Twirp body over 1 MiB is answered 413 with a reason before it is read', async () => {
  const answer = (headers: http.OutgoingHttpHeaders, send: (req: http.ClientRequest) => void) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: media.port, method: 'POST', path: '/twirp/livekit.RoomService/ListRooms', headers },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
          res.on('error', reject);
        },
      );
      // The server closes the connection while we still send; without an answer that is a failure.
      req.on('error', (err) => setTimeout(() => reject(err), 1000));
      send(req);
    });

  // Announced: refused from the header.
  const announced = await answer(
    { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) },
    (req) => req.write('{"'),
  );
  expect(announced.status).toBe(413);
  expect(JSON.parse(announced.body)).toEqual({ code: 'resource_exhausted', msg: expect.stringMatching(/1 MiB/) });

  // Streamed without a length: refused once it passes the bound, the rest never read.
  const streamed = await answer({ 'content-type': 'application/json' }, (req) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 64 && !req.destroyed) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    pump();
  });
  expect(streamed.status).toBe(413);
  expect(JSON.parse(streamed.body).msg).toMatch(/1 MiB/);
  await expectBystanderUnharmed();
});
