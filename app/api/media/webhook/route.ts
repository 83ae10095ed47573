import { route, auth } from '@/lib/http/route';
import { receiveMediaWebhook } from '@/lib/domain/media-events';

// The media layer's own webhooks (LiveKit): signed JWT in Authorization, verified on the raw body.
export const POST = route({ auth: auth.none }, ({ rawBody, req }) =>
  receiveMediaWebhook(rawBody, req.headers.get('authorization')),
);
