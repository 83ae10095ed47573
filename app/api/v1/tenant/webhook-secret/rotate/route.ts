import { route, auth } from '@/lib/http/route';
import { rotateWebhookSecret } from '@/lib/domain/webhooks';
import { secretRotationInput } from '@/lib/domain/webhooks.schemas';

export const POST = route({ auth: auth.tenant('tenant.manage'), body: secretRotationInput }, ({ auth, body }) => rotateWebhookSecret(auth.tenant.id, body.overlapSeconds));
