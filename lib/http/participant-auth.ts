import { sql } from '@/lib/db';
import { ApiError } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { isTurnedAway } from '@/lib/domain/participants';
import { participantFromJson } from '@/lib/domain/participants/views';
import { roomFromJson } from '@/lib/domain/rooms';
import { tenantFromJson } from '@/lib/domain/tenants';
import type { ParticipantCredential } from '@/lib/domain/me';

const refused = (message = 'Invalid or expired participant token.') => new ApiError('UNAUTHENTICATED', message);

/**
 * Authorization: Bearer <participant token>. The token's algorithm (HS256 only), signature and
 * expiry are checked with the media layer's verifier, and its identity and room claims must both
 * match the participant row; the participant's role comes from OUR database, never from
 * the token's self-editable metadata.
 */
export async function authenticateParticipant(
  header: string | null,
  { evenIfRefused = false } = {},
): Promise<ParticipantCredential> {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!token) throw refused('Missing participant token: send Authorization: Bearer <token>.');
  // The identity (sub) picks the tenant whose media credentials must have signed the token.
  const identity = unverifiedSubject(token);
  if (!identity) throw refused();
  const row = (await sql().query<CredentialRow>(credentialStatement(identity))).rows[0];
  if (!row) throw refused();
  const participant = participantFromJson(row.participant);
  const room = roomFromJson(row.room);
  const tenant = tenantFromJson(row.tenant);
  let verified;
  try {
    verified = await mediaFor(tenant).verifyParticipantToken(token);
  } catch {
    throw refused();
  }
  // Both claims must name OUR record: the identity, and the room that participant belongs to.
  if (verified.identity !== participant.mediaIdentity || verified.roomName !== room.mediaRoomName) throw refused();
  if (tenant.status === 'SUSPENDED') throw new ApiError('TENANT_SUSPENDED', 'This tenant is suspended.');
  if (!evenIfRefused && isTurnedAway(participant)) {
    throw new ApiError(
      'FORBIDDEN',
      participant.connectionState === 'REMOVED'
        ? 'This participant was removed from the room.'
        : 'This participant was refused entry to the room.',
    );
  }
  return { participant, room, tenant };
}

type CredentialRow = Record<'participant' | 'room' | 'tenant', Record<string, unknown>>;

/**
 * The token's participant, its room and the room's tenant in one round trip (Prisma's include
 * takes three), named so that each pooled connection plans it once: every request with a
 * participant token runs it, among them each participant's call-quality report.
 */
const credentialStatement = (identity: string) => ({
  name: 'convene_participant_credential',
  text: `SELECT to_jsonb(p) AS participant, to_jsonb(r) AS room, to_jsonb(t) AS tenant
           FROM "Participant" p JOIN "Room" r ON r.id = p."roomId" JOIN "Tenant" t ON t.id = r."tenantId"
          WHERE p."mediaIdentity" = $1`,
  values: [identity],
});

function unverifiedSubject(jwt: string): string | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}
