import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, Prisma } from '@/lib/generated/prisma/client';
import { config } from '@/lib/config';
import { processState } from '@/lib/runtime/process-state';

export { Prisma };
export type Tx = Prisma.TransactionClient;

const pool = processState('db', () => ({ client: undefined as PrismaClient | undefined }));

/** One client, and so one connection pool, per process. */
export function db(): PrismaClient {
  if (!pool.client) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = config();
    const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE });
    // Joins and votes lock a row and queue behind each other under load: give waiting
    // transactions time to get a connection rather than failing the request.
    pool.client = new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 15_000 } });
  }
  return pool.client;
}

export async function disconnectDb(): Promise<void> {
  await pool.client?.$disconnect();
  pool.client = undefined;
}
