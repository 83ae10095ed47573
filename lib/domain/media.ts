import type { Tenant } from '@/lib/generated/prisma/client';
import { config } from '@/lib/config';
import { decryptSecret } from '@/lib/crypto';
import { getMediaLayer, type MediaLayer } from '@/lib/media';

const tenantLayers = new Map<string, MediaLayer>();

/** The media layer a tenant's rooms live on: its own project if configured, else the platform's. */
export function mediaFor(tenant: Pick<Tenant, 'mediaUrl' | 'mediaApiKey' | 'mediaApiSecretEncrypted'>): MediaLayer {
  if (tenant.mediaUrl && tenant.mediaApiKey && tenant.mediaApiSecretEncrypted) {
    // Decrypted once per process and ciphertext (every join signs a token with it), not per request.
    const cacheKey = `${tenant.mediaUrl}|${tenant.mediaApiKey}|${tenant.mediaApiSecretEncrypted}`;
    let layer = tenantLayers.get(cacheKey);
    if (!layer) {
      layer = getMediaLayer({
        url: tenant.mediaUrl,
        apiKey: tenant.mediaApiKey,
        apiSecret: decryptSecret(tenant.mediaApiSecretEncrypted),
      });
      if (tenantLayers.size >= 1_000) tenantLayers.clear();
      tenantLayers.set(cacheKey, layer);
    }
    return layer;
  }
  const c = config();
  return getMediaLayer({ url: c.LIVEKIT_URL, apiKey: c.LIVEKIT_API_KEY, apiSecret: c.LIVEKIT_API_SECRET });
}
