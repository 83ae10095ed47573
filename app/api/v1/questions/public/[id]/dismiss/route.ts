import { route, auth } from '@/lib/http/route';
import { dismissQuestion } from '@/lib/domain/questions';
import { questionResponse } from '@/lib/domain/questions.schemas';

// Participant token of a HOST or MODERATOR (per our records) of the question's room.
export const POST = route(
  {
    tag: 'Questions',
    summary: 'Participant surface: dismiss (host or moderator token)',
    auth: auth.participant,
    response: questionResponse,
  },
  ({ auth, params }) =>
    dismissQuestion({
      tenant: auth.tenant,
      id: params.id,
      actorExternalId: auth.participant.externalUserId,
      roomId: auth.room.id,
    }),
);
