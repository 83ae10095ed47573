import http from 'node:http';
import { test, expect } from '@playwright/test';

/**
 * the production server (`server/main.ts`) holds an idle keep-alive connection 65 s (server/main.ts), not Node's 5 s:
 * a client that reuses its connection after six idle seconds gets its answer on the same socket,
 * where with the default the server would have closed it (and a request racing that close would
 * have been reset). Against the console suite's server (global setup), started as `npm start` does.
 */
test('an idle keep-alive connection is still open after six seconds', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sockets: unknown[] = [];
  let closed = false;
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${process.env.CONSOLE_BASE_URL}/api/v1/health`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('socket', (socket) => {
        if (!sockets.includes(socket)) {
          sockets.push(socket);
          socket.once('close', () => (closed = true));
        }
      });
      req.on('error', reject);
    });
  try {
    expect(await get()).toBe(200);
    await new Promise((r) => setTimeout(r, 6000));
    expect(closed).toBe(false);
    expect(await get()).toBe(200);
    expect(sockets).toHaveLength(1);
  } finally {
    agent.destroy();
  }
});
