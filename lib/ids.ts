import { pooledRandomBytes } from '@/lib/crypto';

let idCounter = 0;

/**
 * A row id for rows our own SQL inserts (Prisma makes cuid()s client-side): the same shape — 25
 * lowercase base-36 characters starting with "c", time first so ids sort roughly by creation.
 */
export function newRowId(): string {
  idCounter = (idCounter + 1) % 1_679_616;
  const random = pooledRandomBytes(8).readBigUInt64BE().toString(36).padStart(12, '0').slice(-12);
  return `c${Date.now().toString(36).padStart(8, '0')}${idCounter.toString(36).padStart(4, '0')}${random}`;
}
