import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, Prisma } from '@/lib/generated/prisma/client';
import { config } from '@/lib/config';

export { Prisma };
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

const globalForDb = globalThis as unknown as { conveneDb?: PrismaClient };

/** One client per process (Next.js dev reloads modules; the global keeps one pool). */
export function db(): PrismaClient {
  if (!globalForDb.conveneDb) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = config();
    const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE });
    // Joins and votes lock a row and queue behind each other under load: give waiting
    // transactions time to get a connection rather than failing the request.
    globalForDb.conveneDb = new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 15_000 } });
  }
  return globalForDb.conveneDb;
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.conveneDb?.$disconnect();
  globalForDb.conveneDb = undefined;
}
