import { route, auth } from '@/lib/http/route';
import { meetingState } from '@/lib/domain/meeting-tools';
import { meetingResponse } from '@/lib/domain/meeting-tools.schemas';

export const GET = route(
  {
    tag: 'Hosted UI',
    summary: 'Your meeting: when it started, and whether recording and captions run or could start',
    auth: auth.participant,
    response: meetingResponse,
  },
  ({ auth }) => meetingState(auth),
);
