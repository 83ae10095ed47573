import { requireTenantActor, orNotFound } from '@/lib/console/session';
import { canManage, roomEvents, roomPeople } from '@/lib/domain/console';
import { messagesFor } from '@/lib/i18n/messages';
import { getRoom } from '@/lib/domain/rooms';
import { listRoomSessions } from '@/lib/domain/attendance';
import { SessionsTable } from '@/components/console/SessionsTable';
import { endRoomAction } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { Badge, statusTone } from '@/components/console/Badge';
import { Card } from '@/components/console/Card';
import { fmtDate, fmtSeconds, fmtTime } from '@/components/console/format';
import { PageHeader } from '@/components/console/PageHeader';
import { secondaryButton } from '@/components/console/styles';
import { Empty, Table, cell, td } from '@/components/console/Table';
import { roomRatings } from '@/lib/domain/meeting-tools';
import { consoleText } from '@/lib/i18n/console';

const PEOPLE = ['Name', 'Role', 'State', 'Joined', 'Left', 'Connected', 'Rating'];

export default async function RoomPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireTenantActor();
  const { id } = await params;
  // Scoped to the signed-in tenant: another tenant's room id is a 404, as in the API.
  const room = await orNotFound(() => getRoom(actor.tenant, id));
  const events = await roomEvents(actor.tenant.id, room.id);
  const sessions = await listRoomSessions(actor.tenant, room.id, { limit: 50 });
  const people = await roomPeople(actor.tenant.id, room.id);
  const ratings = await roomRatings(actor.tenant.id, room.id);
  // The console is in English; the words come from the same dictionary as the call's.
  const { roomFeatures } = messagesFor('en');
  const features = (
    [
      'enableRecording',
      'enableChat',
      'enableScreenShare',
      'enableWaitingRoom',
      'enableE2EE',
      'enableAiFeatures',
    ] as const
  ).filter((f) => room[f]);
  return (
    <>
      <PageHeader
        back={{ href: '/console/rooms', label: 'Rooms' }}
        title={room.name}
        description={`${room.id} · ${room.type.toLowerCase()} · created ${fmtDate(room.createdAt)}`}
      >
        {room.status !== 'ENDED' && (
          <a href={`/console/rooms/${room.id}/live`} className={secondaryButton}>
            Live view
          </a>
        )}
        {room.status !== 'ENDED' && (
          <ActionButton
            action={endRoomAction.bind(null, room.id)}
            label="End room"
            tone="danger"
            confirm="End this room for everyone?"
            success="Room ended"
            disabled={!canManage(actor)}
            disabledReason="Viewers cannot end rooms"
          />
        )}
      </PageHeader>
      <div className="mb-6 grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        <Card title="Status">
          <Badge tone={statusTone(room.status)}>{room.status.toLowerCase()}</Badge>
          {room.isLocked && (
            <span className="ml-2">
              <Badge>locked</Badge>
            </span>
          )}
        </Card>
        <Card title="Seats">
          <p className="tabular-nums">
            {room.activeParticipants} connected of {room.maxParticipants}
          </p>
        </Card>
        <Card title="Features">
          <p className="text-sm">{features.length ? features.map((f) => roomFeatures[f]).join(', ') : 'None'}</p>
        </Card>
        <Card title="Rating">
          <p className="text-sm" data-testid="room-rating">
            {ratings.average === null
              ? 'Nobody has rated a meeting here yet.'
              : consoleText.ratings(ratings.count, ratings.average.toFixed(1))}
          </p>
        </Card>
      </div>
      <h2 className="mb-2 text-lg font-semibold">Participants</h2>
      {people.length ? (
        <Table caption="Participants" head={PEOPLE} stack>
          {people.map((p) => (
            <tr key={p.id}>
              <td {...cell(PEOPLE[0])}>
                <span>
                  {p.displayName}
                  <span className="block font-mono text-xs text-slate-500">{p.externalUserId}</span>
                </span>
              </td>
              <td {...cell(PEOPLE[1])}>{p.role.toLowerCase()}</td>
              <td {...cell(PEOPLE[2])}>
                <span>
                  <Badge tone={statusTone(p.connectionState)}>{p.connectionState.toLowerCase()}</Badge>
                </span>
              </td>
              <td {...cell(PEOPLE[3], 'tabular-nums')}>{fmtTime(p.firstJoinedAt.toISOString())}</td>
              <td {...cell(PEOPLE[4], 'tabular-nums')}>
                {p.lastLeftAt ? (
                  fmtTime(p.lastLeftAt.toISOString())
                ) : (
                  <span>
                    <Badge tone="green">still here</Badge>
                  </span>
                )}
              </td>
              <td {...cell(PEOPLE[5], 'tabular-nums')}>{fmtSeconds(p.connectedSeconds)}</td>
              <td {...cell(PEOPLE[6], 'tabular-nums')}>{ratings.byParticipant.get(p.id) ?? '—'}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>Nobody has joined this room.</Empty>
      )}
      <h2 className="mb-2 mt-8 text-lg font-semibold">Sessions</h2>
      <SessionsTable sessions={sessions.data} />
      <h2 className="mb-2 mt-8 text-lg font-semibold">Chat</h2>
      {room.enableE2EE ? (
        <p className="text-sm">
          This room is end-to-end encrypted: its chat stays between participants and is not stored.
        </p>
      ) : (
        <p className="text-sm">
          <a href={`/console/rooms/${room.id}/chat.csv`} className={secondaryButton} download>
            Download chat (CSV)
          </a>
          <span className="ml-2 text-slate-600 dark:text-slate-400">
            Stored messages, oldest first, direct messages included.
          </span>
        </p>
      )}
      <h2 className="mb-2 mt-8 text-lg font-semibold">Events</h2>
      {events.length ? (
        <Table caption="Room events" head={['Event', 'When', 'Id']}>
          {events.map((e) => (
            <tr key={e.id}>
              <td className={`${td} font-mono`}>{e.name}</td>
              <td className={td}>{fmtDate(e.occurredAt)}</td>
              <td className={`${td} font-mono text-xs`}>{e.id}</td>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>No events yet.</Empty>
      )}
    </>
  );
}
