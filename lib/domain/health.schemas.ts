import { z } from 'zod';
import { named, timestamp } from '@/lib/domain/shared.schemas';

export const healthResponse = named(
  'Health',
  'Liveness and readiness.',
  z.object({ status: z.literal('ok'), database: z.literal('ok'), time: timestamp }),
);
