/**
 * The baseline for the join benchmark: a bare node:http server doing only a join's essential
 * work — hash the API key and look it up, insert one participant row, sign one JWT — against the
 * same database. Convene's join throughput is reported as a ratio of this.
 */
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { AccessToken } from 'livekit-server-sdk';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    try {
      const input = JSON.parse(body) as { externalUserId: string; displayName: string };
      const roomId = req.url!.split('/')[4];
      const hash = createHash('sha256').update(String(req.headers['x-api-key'])).digest('hex');
      const key = await pool.query('SELECT "tenantId" FROM "ApiKey" WHERE "keyHash" = $1', [hash]);
      if (key.rowCount === 0) return res.writeHead(401).end();
      const identity = `p_${randomBytes(10).toString('hex')}`;
      await pool.query(
        `INSERT INTO "Participant" (id, "roomId", "tenantId", "externalUserId", "displayName", "mediaIdentity", "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, now())`,
        [
          randomBytes(12).toString('hex'),
          roomId,
          key.rows[0].tenantId,
          input.externalUserId,
          input.displayName,
          identity,
        ],
      );
      const token = new AccessToken('devkey', 'secret', { identity, name: input.displayName, ttl: 21600 });
      token.addGrant({ roomJoin: true, room: roomId });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: await token.toJwt() }));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
});
