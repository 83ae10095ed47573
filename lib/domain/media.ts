import type { Tenant } from '@/lib/generated/prisma/client';
import { config } from '@/lib/config';
import { decryptSecret } from '@/lib/crypto';
import { getMediaLayer, type MediaLayer } from '@/lib/media';

/** The media layer a tenant's rooms live on: its own project if configured, else the platform's. */
export function mediaFor(tenant: Pick<Tenant, 'mediaUrl' | 'mediaApiKey' | 'mediaApiSecretEncrypted'>): MediaLayer {
  if (tenant.mediaUrl && tenant.mediaApiKey && tenant.mediaApiSecretEncrypted) {
    return getMediaLayer({ url: tenant.mediaUrl, apiKey: tenant.mediaApiKey, apiSecret: decryptSecret(tenant.mediaApiSecretEncrypted) });
  }
  const c = config();
  return getMediaLayer({ url: c.LIVEKIT_URL, apiKey: c.LIVEKIT_API_KEY, apiSecret: c.LIVEKIT_API_SECRET });
}
