import { z } from 'zod';
import { paginationQuery } from '@/lib/domain/pagination';
import { named, page, timestamp, timestampInput } from '@/lib/domain/shared.schemas';
import { participantRole } from '@/lib/domain/participants.schemas';

/** Sessions, attendance and presence: query inputs and response shapes (see docs/attendance.md). */
const seconds = z.int().nonnegative();
const sessionStatus = z.enum(['LIVE', 'ENDED']);

export const sessionListQuery = paginationQuery;

export const tenantSessionListQuery = paginationQuery.extend({
  from: timestampInput.optional().describe('Sessions still live at or ending after this time (ISO 8601).'),
  to: timestampInput.optional().describe('Sessions started before this time (ISO 8601).'),
  roomId: z.string().max(100).optional(),
  status: sessionStatus.optional(),
});

export const sessionResponse = named(
  'RoomSession',
  'One period in which a room was live: first connection (or the media room starting) until the room ended. A re-opened or reused room gets a new session.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    status: sessionStatus,
    startedAt: timestamp,
    endedAt: timestamp.nullable().describe('Null while LIVE.'),
    duration: seconds.describe('Seconds from start to end (to now while LIVE).'),
    peakParticipants: seconds.describe('Most participants connected at once.'),
    uniqueAttendees: seconds.describe('Distinct participants (external users) who connected.'),
  }),
);
export const sessionPage = page('RoomSessionPage', sessionResponse, 'sessions, most recently started first');

const intervalResponse = z.object({
  joinedAt: timestamp,
  leftAt: timestamp.nullable().describe('Null while connected.'),
  seconds: seconds.describe('Seconds of this interval (to now while connected).'),
});

export const attendanceResponse = named(
  'Attendance',
  "One user's attendance in a session: every connection interval (each reconnect is a new one).",
  z.object({
    participantId: z.string(),
    externalUserId: z.string(),
    displayName: z.string(),
    role: participantRole,
    connected: z.boolean().describe('Connected now (only in a LIVE session).'),
    firstJoinedAt: timestamp,
    lastLeftAt: timestamp.nullable().describe('Null while connected.'),
    totalSeconds: seconds.describe('Seconds connected, overlapping intervals counted once.'),
    intervals: z.array(intervalResponse),
  }),
);

export const sessionWithAttendanceResponse = named(
  'RoomSessionWithAttendance',
  'A session with its attendance, in order of first join.',
  sessionResponse.extend({ attendance: z.array(attendanceResponse) }),
);

const presenceParticipant = z.object({
  participantId: z.string(),
  externalUserId: z.string(),
  displayName: z.string(),
  role: participantRole,
  connectedSince: timestamp.describe('When the current connection joined.'),
});

export const presenceRoomResponse = named(
  'RoomPresence',
  "Who is connected to a room now, from Convene's own state (media-layer webhooks).",
  z.object({
    roomId: z.string(),
    sessionId: z.string().nullable().describe('The live session; null when the room is not live.'),
    participants: z.array(presenceParticipant),
  }),
);
export const presencePage = named(
  'PresencePage',
  'Rooms with anyone connected now, most recently started session first.',
  z.object({ data: z.array(presenceRoomResponse), nextCursor: z.string().nullable() }),
);
