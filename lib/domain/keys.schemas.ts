import { z } from 'zod';
import type { KeyMode } from '@/lib/generated/prisma/enums';
import { permission } from '@/lib/domain/permissions';
import { named, nullableTimestamp, page, timestamp } from '@/lib/domain/shared.schemas';

/** API keys: request and response schemas. */

/** Bounds on a rotated key's grace period: 0 (revoke at once) to 7 days; default 1 hour. */
const MAX_GRACE_SECONDS = 604_800;
const DEFAULT_GRACE_SECONDS = 3_600;
const gracePeriodSeconds = z.number().int().min(0).max(MAX_GRACE_SECONDS);

export const createKeyInput = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  permissions: z.array(permission).min(1).optional(),
});

export const rotateKeyInput = z.object({ gracePeriodSeconds: gracePeriodSeconds.default(DEFAULT_GRACE_SECONDS) });

const apiKeyShape = {
  id: z.string(),
  name: z.string().nullable(),
  // KeyMode in lower case, as the key's prefix spells it (cv_live_, cv_test_).
  mode: z.enum(['live', 'test'] as const satisfies readonly Lowercase<KeyMode>[]),
  hint: z.string().describe('cv_live_…abcd: the last four characters only.'),
  permissions: z.array(permission),
  status: z.enum(['active', 'expiring', 'expired', 'revoked']),
  expiresAt: nullableTimestamp,
  revokedAt: nullableTimestamp,
  lastUsedAt: nullableTimestamp,
  createdAt: timestamp,
};
export const apiKeyResponse = named('ApiKey', 'An API key: never the key itself.', z.object(apiKeyShape));
export type ApiKeyResponse = z.output<typeof apiKeyResponse>;
export const apiKeyPage = page('ApiKeyPage', apiKeyResponse, 'API keys (unpaginated)');
export const createdApiKeyResponse = named(
  'ApiKeyWithSecret',
  'A new API key with its plaintext, shown this once.',
  z.object({ ...apiKeyShape, plainTextKey: z.string() }),
);
export const apiKeyRotationResponse = named(
  'ApiKeyRotation',
  'A rotation: the new key (plaintext shown once) and the rotated-out key.',
  z.object({ plainTextKey: z.string(), apiKey: apiKeyResponse, previousKey: apiKeyResponse }),
);
