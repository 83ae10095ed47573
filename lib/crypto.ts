import { createCipheriv, createDecipheriv, createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '@/lib/config';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the CSPRNG 4 KB at a time and handed out once each, as Node does
// for randomUUID: a request takes several ids, and a randomBytes call per id costs a system call
// and OpenSSL's fork check each time (about 2 % of a join's CPU, measured).
const RANDOM_POOL_BYTES = 4096;
const randomPool = { bytes: Buffer.alloc(0), offset: 0 };

/**
 * `length` fresh bytes from the pool, in memory of their own (not a view of the pool, nor of
 * Node's shared Buffer pool): whatever a caller does with the buffer reveals no other draw.
 */
export function pooledRandomBytes(length: number): Buffer {
  if (length > RANDOM_POOL_BYTES) return randomBytes(length);
  if (randomPool.offset + length > randomPool.bytes.length) {
    randomPool.bytes = randomBytes(RANDOM_POOL_BYTES);
    randomPool.offset = 0;
  }
  const out = Buffer.alloc(length);
  randomPool.bytes.copy(out, 0, randomPool.offset, randomPool.offset + length);
  randomPool.offset += length;
  return out;
}

/** Uniform base62 string from rejection-sampled random bytes (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = pooledRandomBytes(length * 2);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      if (bytes[i] < 248) out += BASE62[bytes[i] % 62];
    }
  }
  return out;
}

// One-shot: no Hash object per call (every authenticated request hashes its key).
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function masterKey(): Buffer {
  const raw = config().CONVENE_MASTER_KEY;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  // Any other length is still usable: derive 32 bytes so a passphrase-style key works too.
  return key.length === 32 ? key : createHash('sha256').update(raw).digest();
}

/** AES-256-GCM; output "v1.<iv>.<tag>.<ciphertext>" in base64url. */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey(), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('Unrecognised secret format');
  const decipher = createDecipheriv('aes-256-gcm', masterKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
