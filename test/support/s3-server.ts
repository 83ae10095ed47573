import http from 'node:http';

/**
 * A loopback object store speaking the S3 REST calls Convene uses (path-style PUT, HEAD, GET,
 * DELETE of /bucket/key), objects in memory. Signatures are not checked: the real
 * @aws-sdk/client-s3 code path is what is exercised.
 */
export async function startS3Server() {
  const objects = new Map<string, Buffer>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
      requests.push(`${req.method} ${key}`);
      const object = objects.get(key);
      if (req.method === 'PUT') {
        objects.set(key, Buffer.concat(chunks));
        return res.writeHead(200, { etag: '"1"' }).end();
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        return res.writeHead(204).end();
      }
      if (!object)
        return res
          .writeHead(404, { 'content-type': 'application/xml' })
          .end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code></Error>');
      res.writeHead(200, {
        'content-length': String(object.length),
        'content-type': 'application/octet-stream',
        etag: '"1"',
      });
      res.end(req.method === 'HEAD' ? undefined : object);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    objects,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
