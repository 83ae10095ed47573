/**
 * The development media server on its own, driven by the unchanged LiveKit clients: headless
 * Chromium pages running livekit-client (its UMD build) over real WebRTC, and livekit-server-sdk
 * for the server API and webhook verification.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from '@playwright/test';
import { AccessToken, RoomServiceClient, TrackSource, type VideoGrant, type WebhookEvent } from 'livekit-server-sdk';
import { WebSocket } from 'ws';
import { AddTrackRequest, SignalRequest, SignalResponse, TrackType } from '@livekit/protocol';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { mediaToken } from '../support/rtc-node-media';
import { holds } from '../support/until';
import { livekitEvents, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let media: DevMediaServer;
let page: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let pageUrl: string;
let browser: Browser;
let roomService: RoomServiceClient;
let receiver: WebhookReceiver;
/** The webhooks so far, each verified as Convene verifies them. */
let hooks: ReturnType<typeof livekitEvents>;
const anyHook = async (matches: (event: WebhookEvent) => boolean) => (await hooks()).some(matches);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  media = await startDevMediaServer({ webhookUrls: [receiver.url], departureTimeoutMs: 1000 });
  hooks = livekitEvents(receiver.received, media);
  roomService = new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret);

  page = await serveLiveKitClientPage();
  pageUrl = page.url;
  browser = await launchChromiumWithFakeDevices();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await media?.close();
  await page?.close();
  await receiver?.close();
});

const token = (room: string, identity: string, grant: Partial<VideoGrant> = {}, secret = media.apiSecret) =>
  mediaToken({ apiKey: media.apiKey, apiSecret: secret }, room, identity, {
    grant,
    name: identity.toUpperCase(),
    metadata: `{"who":"${identity}"}`,
  });

/** A page connected to the room with livekit-client; remote tracks are attached, data and disconnects recorded. */
async function connect(
  room: string,
  identity: string,
  opts: { grant?: Partial<VideoGrant>; publish?: boolean } = {},
): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(pageUrl);
  await page.evaluate(
    async ({ url, jwt, publish }) => {
      const w = window as any;
      const room = new w.LivekitClient.Room();
      w.room = room;
      w.received = [];
      w.disconnectReason = null;
      room.on('trackSubscribed', (track: any) => {
        const el = track.attach();
        el.dataset.kind = track.kind;
        document.body.appendChild(el);
      });
      room.on('dataReceived', (payload: Uint8Array, participant: any, _kind: unknown, topic: string) =>
        w.received.push({ text: new TextDecoder().decode(payload), from: participant?.identity ?? null, topic }),
      );
      room.on('disconnected', (reason: number) => (w.disconnectReason = reason));
      w.speakers = [];
      room.on('activeSpeakersChanged', (speakers: any[]) => w.speakers.push(...speakers.map((p) => p.identity)));
      await room.connect(url, jwt);
      if (publish) await room.localParticipant.enableCameraAndMicrophone();
    },
    { url: media.url, jwt: await token(room, identity, opts.grant), publish: opts.publish ?? true },
  );
  return page;
}

const videoFrames = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      0,
      ...[...document.querySelectorAll<HTMLVideoElement>('video[data-kind="video"]')].map(
        (v) => v.getVideoPlaybackQuality().totalVideoFrames,
      ),
    ),
  );
const remotes = (page: Page) =>
  page.evaluate(() =>
    [...(window as any).room.remoteParticipants.values()].map(
      (p: any) =>
        `${p.identity}:${[...p.trackPublications.values()]
          .filter((t: any) => t.isSubscribed)
          .map((t: any) => t.kind)
          .sort()
          .join(',')}`,
    ),
  );

describe('development media server', { timeout: 90_000 }, () => {
  it('forwards video, audio and data between two real browsers, and tells Convene by signed webhooks', async () => {
    const ada = await connect('r-call', 'ada');
    const bob = await connect('r-call', 'bob');
    await holds(
      "ada and bob subscribed to each other's audio and video",
      async () =>
        (await remotes(ada)).join() === 'bob:audio,video' && (await remotes(bob)).join() === 'ada:audio,video',
      20_000,
    );
    await holds(
      'ada and bob decoding frames',
      async () => (await videoFrames(ada)) > 10 && (await videoFrames(bob)) > 10,
      20_000,
    );
    const before = await videoFrames(bob);
    await bob.waitForTimeout(1000);
    expect(await videoFrames(bob)).toBeGreaterThan(before + 5); // frames keep arriving, not a frozen first one

    // The fake microphone beeps: Bob is told Ada is speaking (speaker updates from the audio level extension).
    await holds('ada speaking, at bob', () => bob.evaluate(() => (window as any).speakers.includes('ada')), 15_000);

    // A screen share is a second video track: Bob decodes both.
    await ada.evaluate(() => (window as any).room.localParticipant.setScreenShareEnabled(true));
    await holds(
      "ada's screen share subscribed at bob",
      async () => (await remotes(bob)).join() === 'ada:audio,video,video',
      20_000,
    );
    const perVideo = () =>
      bob.evaluate(() =>
        [...document.querySelectorAll<HTMLVideoElement>('video[data-kind="video"]')].map(
          (v) => v.getVideoPlaybackQuality().totalVideoFrames,
        ),
      );
    await holds(
      "both of ada's videos decoded at bob",
      async () => (await perVideo()).length === 2 && (await perVideo()).every((n) => n > 5),
      20_000,
    );

    await ada.evaluate(() =>
      (window as any).room.localParticipant.publishData(new TextEncoder().encode('hi bob'), {
        reliable: true,
        topic: 'chat',
      }),
    );
    await holds('the data at bob', async () => (await bob.evaluate(() => (window as any).received)).length > 0, 10_000);
    expect(await bob.evaluate(() => (window as any).received)).toEqual([
      { text: 'hi bob', from: 'ada', topic: 'chat' },
    ]);

    // The server API sees both as LiveKit would list them, with their tracks.
    const listed = await roomService.listParticipants('r-call');
    expect(listed.map((p) => [p.identity, p.name, p.metadata, p.tracks.length]).sort()).toEqual([
      ['ada', 'ADA', '{"who":"ada"}', 3],
      ['bob', 'BOB', '{"who":"bob"}', 2],
    ]);
    await holds(
      'room_started, participant_joined and track_published for r-call',
      async () => {
        const events = await hooks();
        return ['room_started', 'participant_joined', 'track_published'].every((e) =>
          events.some((h) => h.event === e && h.room?.name === 'r-call'),
        );
      },
      10_000,
    );
    await ada.close();
    await bob.close();
    await holds(
      'participant_left for ada',
      () => anyHook((h) => h.event === 'participant_left' && h.participant?.identity === 'ada'),
      10_000,
    );
    // The room ends once the departure timeout has passed.
    await holds(
      'room_finished for r-call',
      () => anyHook((h) => h.event === 'room_finished' && h.room?.name === 'r-call'),
      10_000,
    );
  });

  it('server API acts on connected browsers: data to one identity, mute, permissions, removal, room deletion', async () => {
    const ada = await connect('r-api', 'ada');
    const bob = await connect('r-api', 'bob', { publish: false });
    const eve = await connect('r-api', 'eve', { publish: false });
    await holds(
      "ada's microphone and camera on the server",
      async () => (await roomService.listParticipants('r-api')).find((p) => p.identity === 'ada')?.tracks.length === 2,
      20_000,
    );

    await roomService.sendData('r-api', new TextEncoder().encode('for bob only'), 0, {
      destinationIdentities: ['bob'],
      topic: 'convene.test',
    });
    await holds('the data at bob', async () => (await bob.evaluate(() => (window as any).received)).length > 0, 10_000);
    expect(await bob.evaluate(() => (window as any).received)).toEqual([
      { text: 'for bob only', from: null, topic: 'convene.test' },
    ]);
    expect(await eve.evaluate(() => (window as any).received)).toEqual([]);

    const audio = (await roomService.getParticipant('r-api', 'ada')).tracks.find(
      (t) => t.source === TrackSource.MICROPHONE,
    )!;
    await roomService.mutePublishedTrack('r-api', 'ada', audio.sid, true);
    await holds(
      'the mute at ada',
      () => ada.evaluate(() => (window as any).room.localParticipant.isMicrophoneEnabled === false),
      10_000,
    );
    await holds(
      'the mute at bob',
      () =>
        bob.evaluate(
          () =>
            [...(window as any).room.remoteParticipants.get('ada').audioTrackPublications.values()][0].isMuted === true,
        ),
      10_000,
    );

    await roomService.updateParticipant('r-api', 'bob', { metadata: '{"role":"HOST"}' });
    await holds(
      "bob's metadata at eve",
      () => eve.evaluate(() => (window as any).room.remoteParticipants.get('bob')?.metadata === '{"role":"HOST"}'),
      10_000,
    );
    await holds(
      "bob's metadata at bob",
      () => bob.evaluate(() => (window as any).room.localParticipant.metadata === '{"role":"HOST"}'),
      10_000,
    );
    // Over LiveKit's limits: refused as LiveKit refuses (invalid_argument), and nothing changes.
    for (const [what, update] of [
      ['metadata', { metadata: 'm'.repeat(512 * 1024 + 1) }],
      ['name', { name: 'n'.repeat(257) }],
      ['attributes', { attributes: { big: 'a'.repeat(64 * 1024) } }],
    ] as const) {
      await expect(roomService.updateParticipant('r-api', 'bob', update), what).rejects.toMatchObject({
        status: 400,
        code: 'invalid_argument',
      });
    }
    const bobNow = await roomService.getParticipant('r-api', 'bob');
    expect([bobNow.metadata, bobNow.name.length, bobNow.attributes.big]).toEqual(['{"role":"HOST"}', 3, undefined]);

    await roomService.removeParticipant('r-api', 'eve');
    await holds('eve disconnected', () => eve.evaluate(() => (window as any).disconnectReason !== null), 10_000);
    expect(await eve.evaluate(() => (window as any).disconnectReason)).toBe(4); // PARTICIPANT_REMOVED
    await roomService.deleteRoom('r-api');
    await holds('bob disconnected', () => bob.evaluate(() => (window as any).disconnectReason !== null), 10_000);
    expect(await bob.evaluate(() => (window as any).disconnectReason)).toBe(5); // ROOM_DELETED
    expect(await roomService.listRooms(['r-api'])).toEqual([]);
    for (const p of [ada, bob, eve]) await p.close();
  });

  it('moves a connected participant to another room, where it sees that room', async () => {
    const ada = await connect('r-main', 'ada');
    const bob = await connect('r-breakout', 'bob');
    await holds('ada alone in r-main', async () => (await roomService.listParticipants('r-main')).length === 1, 10_000);
    await roomService.moveParticipant('r-main', 'ada', 'r-breakout');
    await holds('bob at ada in r-breakout', async () => (await remotes(ada)).join() === 'bob:audio,video', 20_000);
    await holds('ada at bob in r-breakout', async () => (await remotes(bob)).join() === 'ada:audio,video', 20_000);
    expect((await roomService.listParticipants('r-breakout')).map((p) => p.identity).sort()).toEqual(['ada', 'bob']);
    await ada.close();
    await bob.close();
  });

  it('refuses what LiveKit refuses: bad tokens at signaling and validate, grants it lacks, other rooms', async () => {
    const validate = async (jwt: string) =>
      (await fetch(`${media.httpUrl}/rtc/validate?access_token=${encodeURIComponent(jwt)}`)).status;
    expect(await validate(await token('r-x', 'ada'))).toBe(200);
    expect(await validate(await token('r-x', 'ada', {}, 'another-secret-of-enough-length'))).toBe(401);
    expect(await validate('garbage')).toBe(401);
    const noJoin = new AccessToken(media.apiKey, media.apiSecret, { identity: 'x' });
    noJoin.addGrant({ roomList: true });
    expect(await validate(await noJoin.toJwt())).toBe(401);
    // v1 signaling (one peer connection) is offered too: its validate path answers as v0's.
    expect((await fetch(`${media.httpUrl}/rtc/v1/validate?access_token=${await token('r-x', 'ada')}`)).status).toBe(
      200,
    );

    const page = await browser.newPage();
    await page.goto(pageUrl);
    const refused = await page.evaluate(
      async ({ url, jwt }) => {
        try {
          await new (window as any).LivekitClient.Room().connect(url, jwt);
          return 'connected';
        } catch (err) {
          return `${(err as any).reason}:${(err as any).status}`;
        }
      },
      { url: media.url, jwt: await token('r-x', 'ada', {}, 'another-secret-of-enough-length') },
    );
    expect(refused).toBe('0:401'); // ConnectionErrorReason.NotAllowed with LiveKit's status
    await page.close();

    // A subscriber-only token publishes nothing.
    const viewer = await connect('r-view', 'vic', { grant: { canPublish: false }, publish: false });
    await viewer.evaluate(async () => {
      try {
        await (window as any).room.localParticipant.setCameraEnabled(true);
      } catch {
        // refused: the participant's permission (from the join response) says it may not publish
      }
    });
    await viewer.waitForTimeout(1500);
    expect((await roomService.getParticipant('r-view', 'vic')).tracks).toEqual([]);
    await viewer.close();

    // The server enforces it too: a raw signaling client asking to publish gets no track.
    const responses: string[] = [];
    const ws = new WebSocket(`${media.url}/rtc?access_token=${await token('r-view', 'raw', { canPublish: false })}`);
    ws.on('message', (data) =>
      responses.push(SignalResponse.fromBinary(new Uint8Array(data as Buffer)).message.case ?? ''),
    );
    await new Promise((r) => ws.once('open', r));
    await holds('the join response', () => responses.includes('join'), 5000);
    ws.send(
      new SignalRequest({
        message: {
          case: 'addTrack',
          value: new AddTrackRequest({ cid: 'c1', type: TrackType.VIDEO, source: TrackSource.CAMERA }),
        },
      }).toBinary(),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(responses).not.toContain('trackPublished');
    expect((await roomService.getParticipant('r-view', 'raw')).tracks).toEqual([]);
    ws.close();

    const wrongRoom = new RoomServiceClient(media.httpUrl, media.apiKey, 'not-the-secret-but-long-enough');
    await expect(wrongRoom.listRooms()).rejects.toMatchObject({ status: 401 });
  });
});
