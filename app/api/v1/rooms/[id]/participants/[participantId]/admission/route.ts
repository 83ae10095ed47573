import { route, auth, authenticateTenant } from '@/lib/http/route';
import { limitFailedCredentials } from '@/lib/http/rate-limit';
import { admissionStatus } from '@/lib/domain/participants';
import { admissionResponse } from '@/lib/domain/participants.schemas';

// Two credentials: the tenant key (backend polling), or the participant's own admission secret
// as a Bearer token (the hosted waiting page). Never the tenant key in a browser.
export const GET = route(
  {
    tag: 'Participants',
    summary: 'Admission poll (tenant key or admission secret)',
    auth: auth.none,
    response: admissionResponse,
  },
  async ({ req, params }) => {
    const tenant = req.headers.has('x-api-key') ? (await authenticateTenant(req, 'rooms.read')).tenant : null;
    const secret = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1] ?? null;
    // A wrong secret answers 404 (it must not confirm the id): that is the failure counted per address.
    return limitFailedCredentials(
      req.headers,
      !tenant && secret !== null,
      () =>
        admissionStatus({ tenant, roomId: params.id, participantId: params.participantId, admissionSecret: secret }),
      'NOT_FOUND',
    );
  },
);
