/**
 * The soak's hostile actors (bench/soak.ts runs them for its whole run, beside the ordinary
 * traffic): a tenant that tries to pass its plan's limits and to stream where the API must refuse,
 * and a participant that floods the media server with what a real client can send.
 */
import { WebSocket } from 'ws';
import { emptyAddTrackRequests, hostileJoinRequestBytes, joinRequestParam } from '../test/support/hostile-messages';

type Call = (
  routeName: string,
  method: string,
  urlPath: string,
  body?: unknown,
) => Promise<{ status: number; json: any } | null>;

export interface HostileTally {
  tenant: {
    rounds: number;
    refusedDestinations: number;
    overQuota: number;
    recordingConflicts: number;
    /** Problems: more started at once than the plan allows, or a refused destination accepted. */
    startedBeyondPlan: string[];
  };
  participant: {
    connections: number;
    dataPackets: number;
    metadataAttempts: number;
    badJoins: number;
    slowestBadJoinMs: number;
    /** Problems: a bad join request the media server took longer than HOSTILE_JOIN_SLOW_MS to refuse. */
    slowJoins: string[];
  };
}

/** A bad join request must be refused well within this (it was 6 s of work for five of them). */
export const HOSTILE_JOIN_SLOW_MS = 5_000;

/** The hostile tenant's plan (bench/soak.ts seeds it). */
const PLAN = { concurrentStreams: 1, concurrentRecordings: 1, ingressEndpoints: 2 };

/**
 * Destinations the API refuses in every environment (the development switch that allows loopback
 * and private addresses, on in the soak as on `npm start`, allows none of these): a port out of
 * range (it once cost a 500 after the egress started), port 0, credentials, no stream key, a host
 * that does not parse, another scheme. test/hardening/hostile-tenant.test.ts proves the private
 * network refused with the switch off.
 */
const REFUSED_DESTINATIONS = [
  'rtmp://127.0.0.1:99999/live/soak-key',
  'rtmp://127.0.0.1:0/live/soak-key',
  'rtmp://user:secret@127.0.0.1/live/soak-key',
  'rtmp://127.0.0.1/live/',
  'rtmp://[::1/live/soak-key',
  'http://127.0.0.1/live/soak-key',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function hostileTenantLoop({
  call,
  tally,
  stopping,
}: {
  call: Call;
  tally: HostileTally['tenant'];
  stopping: () => boolean;
}) {
  for (let i = 0; !stopping(); i++) {
    const room = await call('POST /rooms', 'POST', '/api/v1/rooms', {
      createdByExternalId: 'mallory',
      enableRecording: true,
    });
    if (room?.status !== 201) {
      await sleep(100);
      continue;
    }
    const roomId = room.json.id as string;
    for (const url of REFUSED_DESTINATIONS) {
      const res = await call('stream to a refused destination', 'POST', '/api/v1/streaming/start', {
        roomId,
        urls: [url],
      });
      if (res?.status === 400) tally.refusedDestinations++;
      else if (res && res.status < 400) tally.startedBeyondPlan.push(`hostile tenant: a stream to ${url} started`);
    }
    const streams = await Promise.all(
      [0, 1, 2].map((k) =>
        call('streams at once', 'POST', '/api/v1/streaming/start', {
          roomId,
          urls: [`rtmp://127.0.0.1:9/live/soak-${i}-${k}-stream-key`],
        }),
      ),
    );
    const recordings = await Promise.all(
      [0, 1, 2, 3].map(() =>
        call('recordings of one room at once', 'POST', `/api/v1/rooms/${roomId}/recordings/start`, {}),
      ),
    );
    const ingresses = await Promise.all(
      [0, 1, 2, 3].map((k) =>
        call('ingresses at once', 'POST', '/api/v1/ingress', {
          roomId,
          name: `soak ${k}`,
          inputType: k % 2 ? 'WHIP' : 'RTMP',
          participantIdentity: `soak-in-${i}-${k}`,
          participantName: 'Soak ingress',
          createdByExternalId: 'mallory',
        }),
      ),
    );
    const ok = (rs: ({ status: number } | null)[]) => rs.filter((r) => r?.status === 201).length;
    for (const [what, started, limit] of [
      ['streams', ok(streams), PLAN.concurrentStreams],
      ['recordings of one room', ok(recordings), 1],
      ['ingresses', ok(ingresses), PLAN.ingressEndpoints],
    ] as const)
      if (started > limit)
        tally.startedBeyondPlan.push(`hostile tenant: ${started} ${what} started at once (limit ${limit})`);
    const refused = [...streams, ...recordings, ...ingresses];
    tally.overQuota += refused.filter((r) => r?.status === 403).length;
    tally.recordingConflicts += recordings.filter((r) => r?.status === 409).length;
    // Clean up what started (the limits free as the media layer reports each egress ended).
    for (const s of streams.filter((r) => r?.status === 201))
      await call('POST /streaming/{id}/stop', 'POST', `/api/v1/streaming/${s!.json.id}/stop`);
    if (ok(recordings))
      await call('POST /rooms/{id}/recordings/stop', 'POST', `/api/v1/rooms/${roomId}/recordings/stop`);
    for (const r of ingresses.filter((r) => r?.status === 201))
      await call('DELETE /ingress/{id}', 'DELETE', `/api/v1/ingress/${r!.json.id}`);
    await call('POST /rooms/{id}/end', 'POST', `/api/v1/rooms/${roomId}/end`);
    tally.rounds++;
  }
}

/**
 * A participant of the hostile tenant, connected with LiveKit's Rust SDK for the whole run
 * (reconnecting if the server closes it): data packets far past the server's per-participant
 * limits, oversized metadata and names, and every half second a bad join request over a raw
 * WebSocket — a stranger's (bad token, 500,000 empty add-track requests gzip'd into one URL) or a
 * good token's oversized one (a second participant's token, so the flooder stays connected).
 */
export async function startHostileParticipant({
  call,
  mediaUrl,
  tally,
}: {
  call: Call;
  mediaUrl: string;
  tally: HostileTally['participant'];
}) {
  const { Room, RoomEvent } = await import('@livekit/rtc-node');
  const room = await call('POST /rooms', 'POST', '/api/v1/rooms', { createdByExternalId: 'mallory' });
  const join = (who: string) =>
    room?.status === 201
      ? call('POST /rooms/{id}/join', 'POST', `/api/v1/rooms/${room.json.id}/join`, {
          externalUserId: who,
          displayName: who,
          role: 'ATTENDEE',
        })
      : Promise.resolve(null);
  const flooder = await join('mallory-flooder');
  const other = await join('mallory-joins');
  let done = false;
  const within = <T>(ms: number, p: Promise<T>) => Promise.race([p.catch(() => undefined), sleep(ms)]);

  const flood = (async () => {
    const token = flooder?.json?.token as string | undefined;
    if (!token) return;
    const payload = new Uint8Array(15_000).fill(0x7b);
    while (!done) {
      const lk = new Room();
      try {
        await lk.connect(mediaUrl, token, { autoSubscribe: false, dynacast: false });
      } catch {
        await sleep(500);
        continue;
      }
      tally.connections++;
      let closed = false;
      lk.on(RoomEvent.Disconnected, () => {
        closed = true;
      });
      for (let tick = 0; !done && !closed; tick++) {
        // 20 packets of 15 KB every 100 ms: 200/s and 3 MB/s, past 100/s and 1 MiB/s.
        for (let k = 0; k < 20 && !closed; k++) {
          await within(1_000, lk.localParticipant!.publishData(payload, { reliable: k % 2 === 0, topic: 'chat' }));
          tally.dataPackets++;
        }
        if (tick % 5 === 0) {
          await within(2_000, lk.localParticipant!.updateMetadata('m'.repeat(64 * 1024)));
          await within(2_000, lk.localParticipant!.updateName('n'.repeat(4 * 1024)));
          await within(
            2_000,
            lk.localParticipant!.setAttributes(
              Object.fromEntries(Array.from({ length: 200 }, (_, a) => [`k${a}`, 'v'.repeat(512)])),
            ),
          );
          tally.metadataAttempts += 3;
        }
        await sleep(100);
      }
      await within(5_000, lk.disconnect());
    }
  })();

  const badJoins = (async () => {
    const goodToken = other?.json?.token as string | undefined;
    const stranger = joinRequestParam(emptyAddTrackRequests(500_000), true);
    const oversized = joinRequestParam(
      hostileJoinRequestBytes({
        tracks: { count: 200, nameBytes: 65_536 },
        emptyTracks: 4096,
        layersPerTrack: 4,
        packedFeatures: 0,
        sdpBytes: 1_000,
        attributes: { count: 5000, valueBytes: 64 },
        metadataBytes: 512 * 1024,
        unknownFields: 0,
        gzip: true,
        truncate: 0,
      }),
      true,
    );
    for (let n = 0; !done; n++) {
      const [token, request, what] =
        n % 2 || !goodToken
          ? ['not-a-token', stranger, "a stranger's 500,000 add-track requests"]
          : [goodToken, oversized, "a good token's oversized join request"];
      const ms = await refusalTime(`${mediaUrl}/rtc/v1?access_token=${token}&join_request=${request}`);
      tally.badJoins++;
      tally.slowestBadJoinMs = Math.max(tally.slowestBadJoinMs, ms);
      if (ms > HOSTILE_JOIN_SLOW_MS && tally.slowJoins.length < 5)
        tally.slowJoins.push(`hostile participant: ${what} took ${ms} ms to refuse`);
      await sleep(500);
    }
  })();

  return {
    async stop() {
      done = true;
      await Promise.all([flood, badJoins]);
    },
  };
}

/** Milliseconds until the media server answers an upgrade: a refusal, a close, or (wrongly) an open. */
function refusalTime(url: string): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { handshakeTimeout: 30_000 });
    const end = () => {
      ws.terminate();
      resolve(Date.now() - started);
    };
    ws.once('unexpected-response', end);
    ws.once('open', end);
    ws.once('close', end);
    ws.once('error', end);
  });
}
