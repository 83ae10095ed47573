/**
 * A "media server" that accepts the WebSocket upgrade and then says nothing: the call view stays
 * up (connecting) for livekit-client's join timeout, so specs can look at the call UI's own parts
 * without a call.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { test } from '@playwright/test';

async function startSilentMediaServer() {
  const sockets = new Set<Duplex>();
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Duplex) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One silent media server for the spec file (started before its tests, closed after); its ws:// URL once started. */
export function useSilentMediaServer(): { readonly url: string } {
  let server: Awaited<ReturnType<typeof startSilentMediaServer>> | undefined;
  test.beforeAll(async () => {
    server = await startSilentMediaServer();
  });
  test.afterAll(() => server?.close());
  return {
    get url() {
      if (!server) throw new Error('the silent media server starts in beforeAll');
      return server.url;
    },
  };
}
