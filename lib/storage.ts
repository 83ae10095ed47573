import { createReadStream } from 'node:fs';
import { stat, unlink, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { config } from '@/lib/config';

/**
 * Where recordings live. Local disk is the default (embedded mode): the media layer's egress
 * writes into STORAGE_DIR, which it must share with Convene (same host or a shared volume).
 */
export interface ObjectStorage {
  /** The path or key egress should write the file to. */
  egressFilepath(key: string): string;
  stat(key: string): Promise<{ size: number } | null>;
  read(key: string): Promise<ReadableStream<Uint8Array>>;
  delete(key: string): Promise<void>;
}

class LocalStorage implements ObjectStorage {
  constructor(private readonly dir: string) {}
  private full(key: string) {
    const resolved = path.resolve(this.dir, key);
    if (!resolved.startsWith(path.resolve(this.dir) + path.sep)) throw new Error('storage key escapes the storage directory');
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

let local: LocalStorage | undefined;

export function storage(): ObjectStorage & { ensure?: (key: string) => Promise<void> } {
  const c = config();
  local ??= new LocalStorage(path.resolve(c.STORAGE_DIR));
  return local;
}
