import { route, auth } from '@/lib/http/route';
import { spotlightAsModerator } from '@/lib/domain/host-actions';
import { spotlightInput, spotlightResponse } from '@/lib/domain/host-actions.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Spotlight someone on everyone’s stage, or remove the spotlight (host or moderator token)',
    auth: auth.participant,
    body: spotlightInput,
    response: spotlightResponse,
  },
  ({ auth, body }) => spotlightAsModerator(auth, body),
);
