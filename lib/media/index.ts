import { createLiveKitMediaLayer } from '@/lib/media/livekit';
import type { MediaCredentials, MediaLayer } from '@/lib/media/types';

export * from '@/lib/media/types';
export { createLiveKitMediaLayer };

// One client per media project (url + key): the SDK clients are cheap but not free to build.
const layers = new Map<string, MediaLayer>();

export function getMediaLayer(credentials: MediaCredentials): MediaLayer {
  const cacheKey = `${credentials.url}|${credentials.apiKey}|${credentials.apiSecret.length}`;
  let layer = layers.get(cacheKey);
  if (!layer) {
    layer = createLiveKitMediaLayer(credentials);
    layers.set(cacheKey, layer);
  }
  return layer;
}
