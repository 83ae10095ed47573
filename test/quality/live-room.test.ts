/**
 * The console's live room view (lib/domain/live-room.ts) against the development media server:
 * who is in now with their microphone, camera, screen share, hand and latest quality; the
 * recording, stream and captions state; the waiting room; and the console's actions through the
 * same rules as the API and the call — mute and lower a hand (the call's), remove and end (the
 * API's), admit and deny in the name of the room's host (and refused where there is none).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite, seedTenant } from '../support/suite';
import { createRoom, joinPeople, joinRoom, type JoinedPerson } from '../support/rooms';
import { db } from '@/lib/db';
import {
  admitFromConsole,
  endFromConsole,
  liveRoom,
  lowerHandFromConsole,
  muteFromConsole,
  removeFromConsole,
} from '@/lib/domain/live-room';

const suite = useSuite();
let t: Awaited<ReturnType<typeof seedTenant>>;
let other: Awaited<ReturnType<typeof seedTenant>>;
let room: { id: string; mediaRoomName: string };
let people: Record<string, JoinedPerson>;

async function connect(
  person: JoinedPerson,
  tracks: {
    sid: string;
    type: 'AUDIO' | 'VIDEO';
    source?: 'CAMERA' | 'MICROPHONE' | 'SCREEN_SHARE';
    muted?: boolean;
  }[],
) {
  suite.media.addParticipant(room.mediaRoomName, { identity: person.mediaIdentity, tracks });
  const now = Math.floor(Date.now() / 1000);
  const res = await suite.media.sendWebhook(`${suite.app.baseUrl}/api/media/webhook`, {
    id: `wh_${person.id}`,
    event: 'participant_joined',
    createdAt: String(now),
    room: { name: room.mediaRoomName, sid: 'RM_live' },
    participant: { identity: person.mediaIdentity, sid: `PA_${person.id}`, joinedAt: String(now) },
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  t = await seedTenant({ plan: 'growth', name: 'Acme' });
  other = await seedTenant({ plan: 'growth', name: 'Other' });
  room = await createRoom(suite, t.key, { createdByExternalId: 'hana', name: 'Live' });
  people = await joinPeople(suite, t.key, room.id, [
    ['hana', 'HOST'],
    ['amy', 'ATTENDEE'],
    ['bob', 'ATTENDEE'],
  ]);
  await connect(people.hana, [
    { sid: 'TR_h_mic', type: 'AUDIO', source: 'MICROPHONE' },
    { sid: 'TR_h_cam', type: 'VIDEO', source: 'CAMERA' },
  ]);
  await connect(people.amy, [
    { sid: 'TR_a_mic', type: 'AUDIO', source: 'MICROPHONE', muted: true },
    { sid: 'TR_a_cam', type: 'VIDEO', source: 'CAMERA' },
    { sid: 'TR_a_screen', type: 'VIDEO', source: 'SCREEN_SHARE' },
  ]);
  await connect(people.bob, [{ sid: 'TR_b_mic', type: 'AUDIO', source: 'MICROPHONE' }]);
});

const person = async (name: string) => (await liveRoom(t.tenant, room.id)).people.find((p) => p.displayName === name);

describe('the live room view', () => {
  it('shows who is in now with their tracks, hand and latest quality', async () => {
    const hand = await suite.api('POST', '/api/v1/me/hand', { bearer: people.bob.token, body: { raised: true } });
    expect(hand.status).toBe(200);
    const report = await suite.api('POST', '/api/v1/me/quality', {
      bearer: people.amy.token,
      body: {
        roomId: room.id,
        samples: [
          {
            ageMs: 0,
            intervalMs: 10_000,
            tracks: [{ direction: 'receive', kind: 'audio', source: 'microphone', kbps: 30, lossPct: 12, jitterMs: 9 }],
            connection: { rttMs: 40 },
          },
        ],
      },
    });
    expect(report.status).toBe(201);

    const view = await liveRoom(t.tenant, room.id);
    expect(view).toMatchObject({
      roomId: room.id,
      status: 'ACTIVE',
      mediaReachable: true,
      recording: null,
      stream: null,
    });
    expect(view.sessionId).toEqual(expect.any(String));
    expect(view.people.map((p) => p.displayName).sort()).toEqual(['amy', 'bob', 'hana']);
    expect(await person('hana')).toMatchObject({
      role: 'HOST',
      microphone: 'on',
      camera: 'on',
      screenShare: false,
      handRaisedAt: null,
      quality: null,
    });
    expect(await person('amy')).toMatchObject({
      microphone: 'muted',
      camera: 'on',
      screenShare: true,
      quality: { score: 1, issues: ['packet_loss'], rttMs: 40, lossPct: 12 },
    });
    expect((await person('bob'))?.handRaisedAt).toEqual(expect.any(String));
    expect((await person('bob'))?.camera).toBe('off');
    expect(view.decidesAs).toBe('hana');
  });

  it('acts through the call’s and the API’s rules: mute, lower a hand, remove', async () => {
    const before = suite.media.callsTo('MutePublishedTrack').length;
    const muted = await muteFromConsole(t.tenant, room.id, people.hana.id, 'microphone', t.tenant.name);
    expect(muted).toEqual({ participantId: people.hana.id, mutedTracks: 1 });
    expect(suite.media.callsTo('MutePublishedTrack').length).toBe(before + 1);
    // Told who did it: the tenant, by its name.
    const told = suite.media
      .callsTo('SendData')
      .map((c) => JSON.parse(Buffer.from(c.body.data, 'base64').toString()))
      .filter((p) => p.type === 'host.muted');
    expect(told.at(-1)).toEqual({ type: 'host.muted', source: 'microphone', by: 'Acme' });
    expect((await person('hana'))?.microphone).toBe('muted');

    await lowerHandFromConsole(t.tenant, room.id, people.bob.id);
    expect((await person('bob'))?.handRaisedAt).toBeNull();

    await removeFromConsole(t.tenant, room.id, people.bob.id);
    expect((await db().participant.findUniqueOrThrow({ where: { id: people.bob.id } })).connectionState).toBe(
      'REMOVED',
    );
    expect(await person('bob')).toBeUndefined();
  });

  it('refuses to act on someone gone or in another room; removing again changes nothing', async () => {
    // Bob was removed above: nothing of his to mute or lower, and his removal stands as it was.
    const before = suite.media.callsTo('MutePublishedTrack').length;
    await expect(muteFromConsole(t.tenant, room.id, people.bob.id, 'microphone', 'Acme')).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    await expect(lowerHandFromConsole(t.tenant, room.id, people.bob.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(suite.media.callsTo('MutePublishedTrack').length).toBe(before);
    const removed = await db().participant.findUniqueOrThrow({ where: { id: people.bob.id } });
    await removeFromConsole(t.tenant, room.id, people.bob.id);
    expect(await db().participant.findUniqueOrThrow({ where: { id: people.bob.id } })).toEqual(removed);

    // Someone of another of the tenant's rooms is not found through this one.
    const elsewhere = await createRoom(suite, t.key, { createdByExternalId: 'hana', name: 'Elsewhere' });
    const ivy = (await joinRoom(suite, t.key, elsewhere.id, { externalUserId: 'ivy', displayName: 'Ivy' })).participant;
    for (const act of [
      () => muteFromConsole(t.tenant, room.id, ivy.id, 'camera', 'Acme'),
      () => lowerHandFromConsole(t.tenant, room.id, ivy.id),
      () => removeFromConsole(t.tenant, room.id, ivy.id),
      () => admitFromConsole(t.tenant, room.id, ivy.id, true),
    ])
      await expect(act()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await db().participant.findUniqueOrThrow({ where: { id: ivy.id } })).connectionState).toBe('PENDING');
  });

  it('admits and denies in the name of the room’s host; refused where the room has none', async () => {
    const lobby = await createRoom(suite, t.key, { createdByExternalId: 'ida', enableWaitingRoom: true });
    await joinRoom(suite, t.key, lobby.id, { externalUserId: 'ida', displayName: 'Ida', role: 'HOST' });
    const [kim, lee] = [
      await joinRoom(suite, t.key, lobby.id, { externalUserId: 'kim', displayName: 'Kim' }),
      await joinRoom(suite, t.key, lobby.id, { externalUserId: 'lee', displayName: 'Lee' }),
    ].map((j) => j.participant);
    const view = await liveRoom(t.tenant, lobby.id);
    expect(view.waiting.map((w) => w.displayName)).toEqual(['Kim', 'Lee']);
    expect(view.decidesAs).toBe('Ida');
    await admitFromConsole(t.tenant, lobby.id, kim.id, true);
    await admitFromConsole(t.tenant, lobby.id, lee.id, false);
    const [k, l] = await Promise.all(
      [kim, lee].map((p) => db().participant.findUniqueOrThrow({ where: { id: p.id } })),
    );
    expect(k).toMatchObject({ connectionState: 'PENDING', isApproved: true, approvedBy: 'ida' });
    expect(l).toMatchObject({ connectionState: 'DENIED', approvedBy: 'ida' });

    const hostless = await createRoom(suite, t.key, { createdByExternalId: 'x', enableWaitingRoom: true });
    const parked = (await joinRoom(suite, t.key, hostless.id, { externalUserId: 'zed', displayName: 'Zed' }))
      .participant;
    expect((await liveRoom(t.tenant, hostless.id)).decidesAs).toBeNull();
    await expect(admitFromConsole(t.tenant, hostless.id, parked.id, true)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('another tenant’s room is not found; ending it ends the room', async () => {
    await expect(liveRoom(other.tenant, room.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(muteFromConsole(other.tenant, room.id, people.amy.id, 'camera', 'x')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await endFromConsole(t.tenant, room.id);
    const view = await liveRoom(t.tenant, room.id);
    expect(view.status).toBe('ENDED');
    expect(view.people).toEqual([]);
  });
});
