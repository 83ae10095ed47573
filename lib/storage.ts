import { createReadStream } from 'node:fs';
import { stat, unlink, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '@/lib/config';
import type { S3Upload } from '@/lib/media/types';

/**
 * Where recordings live. Local disk is the default (embedded mode): the media layer's egress
 * writes into STORAGE_DIR, which it must share with Convene (same host or a shared volume).
 * With STORAGE_DRIVER=s3, egress uploads to the bucket itself and Convene reads it there.
 */
interface ObjectStorage {
  /** The path or key egress should write the file to. */
  egressFilepath(key: string): string;
  /** Upload settings for the media layer's egress, when it writes to object storage. */
  egressS3?(): S3Upload;
  stat(key: string): Promise<{ size: number } | null>;
  read(key: string): Promise<ReadableStream<Uint8Array>>;
  delete(key: string): Promise<void>;
}

class LocalStorage implements ObjectStorage {
  constructor(private readonly dir: string) {}
  private full(key: string) {
    const resolved = path.resolve(this.dir, key);
    if (!resolved.startsWith(path.resolve(this.dir) + path.sep))
      throw new Error('storage key escapes the storage directory');
    return resolved;
  }
  egressFilepath(key: string) {
    return this.full(key);
  }
  async stat(key: string) {
    try {
      const s = await stat(this.full(key));
      return s.isFile() ? { size: s.size } : null;
    } catch {
      return null;
    }
  }
  async read(key: string) {
    return Readable.toWeb(createReadStream(this.full(key))) as ReadableStream<Uint8Array>;
  }
  async delete(key: string) {
    await unlink(this.full(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  async ensure(key: string) {
    await mkdir(path.dirname(this.full(key)), { recursive: true });
  }
}

class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  constructor(private readonly settings: S3Upload) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKey && settings.secret
          ? { accessKeyId: settings.accessKey, secretAccessKey: settings.secret }
          : undefined,
    });
  }
  egressFilepath(key: string) {
    return key;
  }
  egressS3() {
    return this.settings;
  }
  async stat(key: string) {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  }
  async read(key: string) {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
    return object.Body!.transformToWebStream() as ReadableStream<Uint8Array>;
  }
  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}

let cached: ObjectStorage | undefined;

export function storage(): ObjectStorage & { ensure?: (key: string) => Promise<void> } {
  if (cached) return cached;
  const c = config();
  if (c.STORAGE_DRIVER === 's3') {
    if (!c.S3_BUCKET) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET');
    cached = new S3Storage({
      bucket: c.S3_BUCKET,
      region: c.S3_REGION ?? 'us-east-1',
      endpoint: c.S3_ENDPOINT,
      accessKey: c.S3_ACCESS_KEY_ID,
      secret: c.S3_SECRET_ACCESS_KEY,
      forcePathStyle: c.S3_FORCE_PATH_STYLE,
    });
  } else {
    cached = new LocalStorage(path.resolve(c.STORAGE_DIR));
  }
  return cached;
}
