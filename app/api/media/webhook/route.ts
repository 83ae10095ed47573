import { route, auth } from '@/lib/http/route';
import { receiveMediaWebhook } from '@/lib/domain/media-events';

// Outside /api/v1, so not in the API reference: the media layer's own webhooks (LiveKit), a signed
// JWT in Authorization verified on the raw body.
export const POST = route(
  { tag: 'Operations', summary: 'Media layer webhooks in (LiveKit-signed)', auth: auth.none },
  ({ rawBody, req }) => receiveMediaWebhook(rawBody, req.headers.get('authorization')),
);
