import { route, auth } from '@/lib/http/route';
import { connectionTest } from '@/lib/domain/quality';
import { connectionTestResponse } from '@/lib/domain/quality.schemas';

export const POST = route(
  {
    tag: 'Hosted UI',
    summary: 'Tokens for a pre-call connection test on the room’s media server (participant token)',
    auth: auth.participant,
    status: 201,
    response: connectionTestResponse,
  },
  ({ auth }) => connectionTest(auth),
);
