import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { roomPeople } from '@/lib/domain/console';

// The console's room page lists everyone who was in the room after the meeting (issue 45: it said
// "Nobody has joined this room" after a meeting of five, reading a list of who is still there).
const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
beforeAll(async () => {
  t = await seedTenant({ plan: 'growth' });
});

const hook = () => `${suite.app.baseUrl}/api/media/webhook`;

describe('the people of a room', () => {
  it('after a meeting of five (one removed, one who rejoined): everyone, with first join, last leave and time connected', async () => {
    const api = (method: string, path: string, body?: unknown) => suite.api(method, path, { key: t.key, body });
    const room = (await api('POST', '/api/v1/rooms', { createdByExternalId: 'host', name: 'Five' })).body;
    const names = ['Ada', 'Bob', 'Cy', 'Dee', 'Eve'];
    const people: Record<string, { id: string; mediaIdentity: string }> = {};
    for (const [i, name] of names.entries())
      people[name] = (
        await api('POST', `/api/v1/rooms/${room.id}/join`, {
          externalUserId: name.toLowerCase(),
          displayName: name,
          ...(i === 0 ? { role: 'HOST' } : {}),
        })
      ).body.participant;
    // Someone who got a link but never came is not listed.
    await api('POST', `/api/v1/rooms/${room.id}/join`, { externalUserId: 'ghost', displayName: 'Ghost' });

    const start = Math.floor(Date.now() / 1000) - 600;
    const joined = (name: string, sid: string, at: number) =>
      suite.media.sendWebhook(hook(), {
        event: 'participant_joined',
        room: { name: room.mediaRoomName },
        participant: { identity: people[name].mediaIdentity, sid, joinedAt: String(at) },
      });
    const left = (name: string, sid: string, at: number) =>
      suite.media.sendWebhook(hook(), {
        event: 'participant_left',
        room: { name: room.mediaRoomName },
        participant: { identity: people[name].mediaIdentity, sid, joinedAt: String(at) },
        createdAt: String(at + 60),
      });
    await suite.media.sendWebhook(hook(), { event: 'room_started', room: { name: room.mediaRoomName, sid: 'RM_5' } });
    for (const [i, name] of names.entries()) await joined(name, `PA_${name}`, start + i * 10);
    await left('Bob', 'PA_Bob', start + 10);
    await joined('Bob', 'PA_Bob2', start + 200); // Bob comes back
    // Eve is removed by the host; then the room ends with the others still in.
    expect(
      (
        await api('POST', `/api/v1/rooms/${room.id}/participants/${people.Eve.id}/remove`, {
          actingExternalUserId: 'ada',
        })
      ).status,
    ).toBe(200);
    expect((await api('POST', `/api/v1/rooms/${room.id}/end`)).status).toBe(200);

    const listed = await roomPeople(t.tenant.id, room.id);
    expect(listed.map((p) => p.displayName).sort()).toEqual(names);
    const of = (name: string) => listed.find((p) => p.displayName === name)!;
    expect(of('Ada')).toMatchObject({ role: 'HOST', firstJoinedAt: new Date(start * 1000) });
    expect(of('Eve').connectionState).toBe('REMOVED');
    for (const p of listed) {
      expect(p.lastLeftAt, p.displayName).not.toBeNull();
      expect(p.lastLeftAt!.getTime()).toBeGreaterThan(p.firstJoinedAt.getTime());
      expect(p.connectedSeconds).toBeGreaterThan(0);
    }
    // Bob: first join of his first connection, last leave of his second; not the gap between them.
    const bob = of('Bob');
    expect(bob.firstJoinedAt).toEqual(new Date((start + 10) * 1000));
    expect(bob.connectedSeconds).toBeLessThan((bob.lastLeftAt!.getTime() - bob.firstJoinedAt.getTime()) / 1000 - 100);
    // Another tenant sees nobody there.
    const other = await seedTenant();
    expect(await roomPeople(other.tenant.id, room.id)).toEqual([]);
  });
});
