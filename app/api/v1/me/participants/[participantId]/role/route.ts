import { route, auth } from '@/lib/http/route';
import { setRoleAsModerator } from '@/lib/domain/host-actions';
import { hostRoleInput } from '@/lib/domain/host-actions.schemas';
import { participantResponse } from '@/lib/domain/participants.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Change one person’s role, e.g. make them co-host (host or moderator token)',
    auth: auth.participant,
    body: hostRoleInput,
    response: participantResponse,
  },
  ({ auth, params, body }) => setRoleAsModerator(auth, params.participantId, body),
);
