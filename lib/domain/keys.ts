import { randomBase62, sha256Hex, constantTimeEqual } from '@/lib/crypto';
import { pageArgs, toPage, type PageQuery } from '@/lib/domain/pagination';
import { db, type Tx } from '@/lib/db';
import { ApiError, invalidState, notFound } from '@/lib/errors';
import type { ApiKey, Tenant, Provider, ProviderKey, KeyMode } from '@/lib/generated/prisma/client';
import { ALL_PERMISSIONS, type Permission } from '@/lib/domain/permissions';
import { cachedCredential, credentialsChanged } from '@/lib/runtime/credential-cache';
import type { ApiKeyResponse } from '@/lib/domain/keys.schemas';
import { iso } from '@/lib/domain/time';

/**
 * Credential formats: cv_live_ / cv_test_ (tenant keys), cv_prov_ (provider keys), whsec_
 * (webhook secrets); 40 random base62 characters each (~238 bits). API and provider keys are
 * stored as SHA-256 hashes: they are long random secrets, so a fast hash is safe and keeps the
 * lookup one indexed query.
 */
const SECRET_LENGTH = 40;
const KEY_PATTERN = /^cv_(live|test|prov)_[0-9A-Za-z]{32,64}$/;

type KeyKind = 'live' | 'test' | 'prov';

interface GeneratedKey {
  plaintext: string;
  hash: string;
  hint: string;
}

export function generateKey(kind: KeyKind): GeneratedKey {
  const plaintext = `cv_${kind}_${randomBase62(SECRET_LENGTH)}`;
  return { plaintext, hash: hashKey(plaintext), hint: plaintext.slice(-4) };
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBase62(SECRET_LENGTH)}`;
}

function hashKey(plaintext: string): string {
  return sha256Hex(plaintext);
}

function keyKindOf(raw: string): KeyKind | null {
  const m = KEY_PATTERN.exec(raw);
  return m ? (m[1] as KeyKind) : null;
}

const unauthenticated = (message: string) => new ApiError('UNAUTHENTICATED', message);

function isUsable(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
  return !key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > now.getTime());
}

/** What each credential header takes, and how a refusal names it. */
const PRESENTED = {
  apiKey: {
    label: 'API key',
    header: 'x-api-key',
    accepts: (kind: KeyKind) => kind !== 'prov',
    wrongKind: 'A provider key is not accepted here: use a tenant API key (x-api-key).',
  },
  providerKey: {
    label: 'provider key',
    header: 'x-provider-key',
    accepts: (kind: KeyKind) => kind === 'prov',
    wrongKind: 'A tenant API key is not accepted here: use a provider key (x-provider-key).',
  },
} as const;
type Presented = keyof typeof PRESENTED;
interface PresentedKey {
  as: Presented;
  kind: KeyKind;
  hash: string;
}

/** A presented key's kind and the hash to look it up by; a missing, malformed or wrong kind of key is refused. */
function readPresentedKey(raw: string | null, as: Presented): PresentedKey {
  const { label, header, accepts, wrongKind } = PRESENTED[as];
  if (!raw) throw unauthenticated(`Missing ${label}: send it in the ${header} header.`);
  const kind = keyKindOf(raw);
  if (kind && !accepts(kind)) throw unauthenticated(wrongKind);
  if (!kind) throw unauthenticated(`Malformed ${label}.`);
  return { as, kind, hash: hashKey(raw) };
}

/** The stored key found by the presented key's hash, if it matches and is neither revoked nor expired. */
function assertUsableKey<K extends { keyHash: string; revokedAt: Date | null; expiresAt: Date | null }>(
  key: K | null,
  presented: PresentedKey,
  now: Date,
): asserts key is K {
  if (!key || !constantTimeEqual(key.keyHash, presented.hash) || !isUsable(key, now)) {
    throw unauthenticated(`Invalid, expired or revoked ${PRESENTED[presented.as].label}.`);
  }
}

export interface TenantCredential {
  apiKey: ApiKey;
  tenant: Tenant;
}

/** Verifies an x-api-key value. Every failure is the same 401 so nothing is learnt by probing. */
export async function authenticateApiKey(raw: string | null, now = new Date()): Promise<TenantCredential> {
  const presented = readPresentedKey(raw, 'apiKey');
  const apiKey = await cachedCredential(presented.hash, () =>
    db().apiKey.findUnique({ where: { keyHash: presented.hash }, include: { tenant: true } }),
  );
  assertUsableKey(apiKey, presented, now);
  // A key's mode and its tenant's mode always agree; a mismatch is treated as an unknown key.
  if (
    (apiKey.mode === 'TEST') !== apiKey.tenant.isTestMode ||
    (presented.kind === 'test') !== (apiKey.mode === 'TEST')
  ) {
    throw unauthenticated('Invalid, expired or revoked API key.');
  }
  touchLastUsed('apiKey', apiKey.id, now);
  const { tenant, ...key } = apiKey;
  return { apiKey: key as ApiKey, tenant };
}

export interface ProviderCredential {
  providerKey: ProviderKey;
  provider: Provider;
}

export async function authenticateProviderKey(raw: string | null, now = new Date()): Promise<ProviderCredential> {
  const presented = readPresentedKey(raw, 'providerKey');
  const providerKey = await db().providerKey.findUnique({
    where: { keyHash: presented.hash },
    include: { provider: true },
  });
  assertUsableKey(providerKey, presented, now);
  touchLastUsed('providerKey', providerKey.id, now);
  const { provider, ...key } = providerKey;
  return { providerKey: key as ProviderKey, provider };
}

export function hasPermission(key: Pick<ApiKey, 'permissions'>, needed: Permission): boolean {
  // tenant.manage implies tenant.read; *.write implies *.read.
  const implied = needed.endsWith('.read')
    ? [needed, needed.replace(/\.read$/, needed === 'tenant.read' ? '.manage' : '.write')]
    : [needed];
  return implied.some((p) => key.permissions.includes(p));
}

// lastUsedAt is written at most once a minute per key, off the request path, so a busy key
// costs one UPDATE a minute instead of one per request.
const LAST_USED_INTERVAL_MS = 60_000;
const lastWritten = new Map<string, number>();

function touchLastUsed(model: Presented, id: string, now: Date): void {
  const mapKey = `${model}:${id}`;
  const previous = lastWritten.get(mapKey);
  if (previous !== undefined && now.getTime() - previous < LAST_USED_INTERVAL_MS) return;
  lastWritten.set(mapKey, now.getTime());
  const update =
    model === 'apiKey'
      ? db().apiKey.update({ where: { id }, data: { lastUsedAt: now } })
      : db().providerKey.update({ where: { id }, data: { lastUsedAt: now } });
  update.catch(() => lastWritten.delete(mapKey));
}

export async function createApiKey(
  tenant: Pick<Tenant, 'id' | 'isTestMode'>,
  { tx, name, permissions }: { tx: Tx; name?: string | null; permissions?: Permission[] },
): Promise<{ apiKey: ApiKey; plainTextKey: string }> {
  const mode: KeyMode = tenant.isTestMode ? 'TEST' : 'LIVE';
  const generated = generateKey(tenant.isTestMode ? 'test' : 'live');
  const apiKey = await tx.apiKey.create({
    data: {
      tenantId: tenant.id,
      name: name ?? null,
      mode,
      keyHash: generated.hash,
      keyHint: generated.hint,
      permissions: permissions ?? ALL_PERMISSIONS,
    },
  });
  return { apiKey, plainTextKey: generated.plaintext };
}

/** The public view of a key: never the hash, only the last four characters. */
export function apiKeyView(key: ApiKey, now = new Date()): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    mode: key.mode === 'TEST' ? 'test' : 'live',
    hint: `cv_${key.mode === 'TEST' ? 'test' : 'live'}_…${key.keyHint}`,
    permissions: key.permissions as Permission[],
    status: key.revokedAt
      ? 'revoked'
      : key.expiresAt && key.expiresAt <= now
        ? 'expired'
        : key.expiresAt
          ? 'expiring'
          : 'active',
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    lastUsedAt: iso(key.lastUsedAt),
    createdAt: key.createdAt.toISOString(),
  };
}

/** A tenant's keys, newest first, paged (the console asks for the first 100). */
export async function listApiKeys(tenantId: string, page: PageQuery = { limit: 100 }) {
  const args = pageArgs(page);
  const keys = await db().apiKey.findMany({
    where: { tenantId, ...args.where },
    orderBy: args.orderBy,
    take: args.take,
  });
  const now = new Date();
  return toPage(keys, page, (k) => apiKeyView(k, now));
}

export async function createTenantApiKey(
  tenant: Pick<Tenant, 'id' | 'isTestMode'>,
  input: { name?: string; permissions?: Permission[] },
) {
  const { apiKey, plainTextKey } = await db().$transaction((tx) => createApiKey(tenant, { tx, ...input }));
  return { ...apiKeyView(apiKey), plainTextKey };
}

async function findKey(tenantId: string, keyId: string) {
  const key = await db().apiKey.findFirst({ where: { id: keyId, tenantId } });
  if (!key) throw notFound('API key');
  return key;
}

/** Revocation is immediate. A key that is already revoked answers 404, like a second DELETE. */
export async function revokeApiKey(tenantId: string, keyId: string) {
  const key = await findKey(tenantId, keyId);
  if (key.revokedAt) throw notFound('API key');
  const revoked = await db().apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  credentialsChanged();
  return apiKeyView(revoked);
}

/**
 * Rotation: a new key with the same name, permissions and mode, shown once; the old key keeps
 * working for exactly gracePeriodSeconds (0 revokes it now). A key already rotated out (expiring,
 * expired or revoked) cannot be rotated again: 409 INVALID_STATE.
 */
export async function rotateApiKey({
  tenant,
  keyId,
  gracePeriodSeconds,
  now = new Date(),
}: {
  tenant: Pick<Tenant, 'id' | 'isTestMode'>;
  keyId: string;
  /** How long the old key keeps working; 0 revokes it now. */
  gracePeriodSeconds: number;
  now?: Date;
}) {
  const old = await findKey(tenant.id, keyId);
  if (old.revokedAt || old.expiresAt || old.rotatedToId) {
    throw invalidState('This key was already rotated or revoked; rotate the current key instead.');
  }
  const { apiKey, plainTextKey, previous } = await db().$transaction(async (tx) => {
    // A key is rotated once: the conditional update takes the row lock, and a concurrent rotation
    // (waiting on that lock) finds the key no longer current and changes nothing: 409.
    const claimed = await tx.apiKey.updateMany({
      where: { id: old.id, revokedAt: null, expiresAt: null, rotatedToId: null },
      data:
        gracePeriodSeconds > 0
          ? { expiresAt: new Date(now.getTime() + gracePeriodSeconds * 1000) }
          : { revokedAt: now },
    });
    if (claimed.count !== 1)
      throw new ApiError(
        'CONFLICT',
        'This key was rotated by a concurrent request; use the key that rotation returned.',
      );
    const created = await createApiKey(tenant, { tx, name: old.name, permissions: old.permissions as Permission[] });
    const retired = await tx.apiKey.update({ where: { id: old.id }, data: { rotatedToId: created.apiKey.id } });
    return { ...created, previous: retired };
  });
  credentialsChanged();
  return { plainTextKey, apiKey: apiKeyView(apiKey, now), previousKey: apiKeyView(previous, now) };
}
