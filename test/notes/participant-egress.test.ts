/**
 * Participant and track egress on the development media server, driven as LiveKit's are: with
 * livekit-server-sdk's EgressClient (StartParticipantEgress, StartTrackEgress), in a room where two
 * headless Chromium pages publish over real WebRTC, each with its own voice as its fake microphone
 * (support/voices.ts: a low voice and a high one). Each file must hold its participant's voice
 * alone: that is what a speaker-attributed transcript is made of.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from '@playwright/test';
import {
  DirectFileOutput,
  EgressClient,
  EgressStatus,
  EncodedFileOutput,
  EncodingOptions,
  RoomServiceClient,
  type EgressInfo,
} from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { publishingPage, serveLiveKitClientPage } from '../support/livekit-page';
import { ffmpegBin, probe } from '../support/media-probe';
import { holds, until } from '../support/until';
import { livekitEvents, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { decodeAudio, recognise, voiceShares, voiceWav, type Voice } from './support/voices';

let media: DevMediaServer;
let egress: EgressClient;
let rooms: RoomServiceClient;
let page: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let receiver: WebhookReceiver;
let hooks: ReturnType<typeof livekitEvents>;
let dir: string;
const browsers: Browser[] = [];
/** The media server's egress log lines (dropped frames, failed outputs), shown with the files' lengths. */
const logs: string[] = [];

/** Chromium whose fake microphone speaks in `voice`, again and again. */
async function speaking(voice: Voice) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${voiceWav(voice).file}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  browsers.push(browser);
  return browser;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  media = await startDevMediaServer({
    webhookUrls: [receiver.url],
    log: (msg) => /egress/.test(msg) && logs.push(msg),
  });
  hooks = livekitEvents(receiver.received, media);
  egress = new EgressClient(media.httpUrl, media.apiKey, media.apiSecret);
  rooms = new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret);
  page = await serveLiveKitClientPage();
  dir = mkdtempSync(path.join(os.tmpdir(), 'convene-participant-egress-'));
}, 60_000);

afterAll(async () => {
  for (const b of browsers) await b.close();
  await media?.close();
  await page?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function publisher(browser: Browser, room: string, identity: string): Promise<Page> {
  const p = await publishingPage({ browser, pageUrl: page.url, media, room, identity });
  await holds(
    `${identity}'s media at the server`,
    () => {
      const tracks = [...(media.rooms.get(room)?.participants.get(identity)?.tracks.values() ?? [])];
      return tracks.length === 2 && tracks.every((t) => t.media);
    },
    20_000,
  );
  return p;
}

const hook = (egressId: string, event: string, status: EgressStatus) =>
  until(
    async () =>
      (await hooks()).find(
        (h) => h.event === event && h.egressInfo?.egressId === egressId && h.egressInfo.status === status,
      )?.egressInfo as EgressInfo | undefined,
    `${event} ${EgressStatus[status]} for ${egressId}`,
    40_000,
  );

/**
 * The voices heard in a file's audio, and each voice's share of its voiced frames. One voice alone
 * reads ~1 % of its frames as the other (a stretch the codec or a dropped frame left an octave off:
 * once in CI, enough for a whole sentence to count as "both"); two voices mixed read 27 % or more
 * as the quieter one, even when it is at 30 % of the other's level.
 */
function heard(file: string) {
  const samples = decodeAudio(ffmpegBin, file);
  expect(samples, `${file} decodes`).not.toBeNull();
  return { voices: new Set(recognise(samples!).flatMap((s) => s.voices)), shares: voiceShares(samples!) };
}
/** The most of a file's voiced frames that may read as another voice when its speaker is alone. */
const STRAY_SHARE = 0.1;

describe('participant and track egress', { timeout: 150_000 }, () => {
  it("records one participant's camera and microphone (MP4), and another's microphone alone (Ogg/Opus); each holds only its own voice", async () => {
    const ada = await publisher(await speaking('low'), 'r-notes', 'ada');
    await publisher(await speaking('high'), 'r-notes', 'bob');
    const adaFile = path.join(dir, 'ada.mp4');
    const bobFile = path.join(dir, 'bob.ogg');
    const participant = await egress.startParticipantEgress(
      'r-notes',
      'ada',
      { file: new EncodedFileOutput({ filepath: adaFile }) },
      // Small, so a machine busy with other suites keeps up (an encoder behind drops frames and their audio).
      { encodingOptions: new EncodingOptions({ width: 320, height: 240, framerate: 15, videoBitrate: 300 }) },
    );
    const bobMic = (await rooms.getParticipant('r-notes', 'bob')).tracks.find((t) => t.source === 2 /* MICROPHONE */)!;
    const track = await egress.startTrackEgress('r-notes', new DirectFileOutput({ filepath: bobFile }), bobMic.sid);
    expect(participant.request.case).toBe('participant');
    expect(track.request.case).toBe('track');
    await hook(participant.egressId, 'egress_updated', EgressStatus.EGRESS_ACTIVE);
    await hook(track.egressId, 'egress_updated', EgressStatus.EGRESS_ACTIVE);
    // Long enough for several sayings of each phrase (each about 1.6 s, with 1.5 s pauses), even
    // when a busy machine's encoder drops some of them.
    await new Promise((r) => setTimeout(r, 20_000));

    // Ada leaves: her participant egress ends by itself, as LiveKit's does; Bob's is stopped.
    await ada.close();
    const adaEnded = await hook(participant.egressId, 'egress_ended', EgressStatus.EGRESS_COMPLETE);
    await egress.stopEgress(track.egressId);
    const bobEnded = await hook(track.egressId, 'egress_ended', EgressStatus.EGRESS_COMPLETE);

    for (const [ended, file] of [
      [adaEnded, adaFile],
      [bobEnded, bobFile],
    ] as const) {
      const [result] = ended.fileResults;
      expect(Number(result.size)).toBe(statSync(file).size);
      // Its time 0, which places a speaker's words on the meeting's timeline.
      expect(Number(result.startedAt / 1_000_000n)).toBeGreaterThan(Date.now() - 120_000);
    }
    expect(probe(adaFile)).toMatchObject({
      format: 'mov',
      decodes: true,
      video: { codec: 'h264', width: 320, height: 240 },
      audio: { codec: 'aac' },
    });
    const bob = probe(bobFile);
    expect(bob).toMatchObject({ format: 'ogg', decodes: true, audio: { codec: 'opus' } });
    expect(bob.video).toBeUndefined();

    console.log(
      `participant egress file: ${probe(adaFile).durationSeconds} s; track egress file: ${bob.durationSeconds} s\n${logs.join('\n')}`,
    );
    const adaHeard = heard(adaFile);
    const bobHeard = heard(bobFile);
    // Each file holds its speaker's voice, and nobody else's. (How many sayings it holds depends on
    // the machine: an encoder that falls behind drops frames with their audio, docs/media.md.)
    console.log(
      `voice shares: Ada's file ${JSON.stringify(adaHeard.shares)}, Bob's ${JSON.stringify(bobHeard.shares)}`,
    );
    expect(adaHeard.voices).toContain('low');
    expect(adaHeard.shares.high).toBeLessThan(STRAY_SHARE);
    expect(bobHeard.voices).toContain('high');
    expect(bobHeard.shares.low).toBeLessThan(STRAY_SHARE);
  });

  it('refuses what it cannot do as LiveKit does: the request accepted, then egress_ended EGRESS_FAILED with the reason', async () => {
    await publisher(await speaking('low'), 'r-refused', 'cy');
    const camera = (await rooms.getParticipant('r-refused', 'cy')).tracks.find((t) => t.source === 1 /* CAMERA */)!;
    const video = await egress.startTrackEgress(
      'r-refused',
      new DirectFileOutput({ filepath: path.join(dir, 'v.webm') }),
      camera.sid,
    );
    expect((await hook(video.egressId, 'egress_ended', EgressStatus.EGRESS_FAILED)).error).toBe(
      'track egress of a video track is not supported by the development media server',
    );
    const missing = await egress.startTrackEgress(
      'r-refused',
      new DirectFileOutput({ filepath: path.join(dir, 'm.ogg') }),
      'TR_nope',
    );
    expect((await hook(missing.egressId, 'egress_ended', EgressStatus.EGRESS_FAILED)).error).toBe(
      'track TR_nope is not published in the room',
    );
    // Someone who never joins: nothing to record once stopped.
    const absent = await egress.startParticipantEgress('r-refused', 'nobody', {
      file: new EncodedFileOutput({ filepath: path.join(dir, 'n.mp4') }),
    });
    await egress.stopEgress(absent.egressId);
    expect((await hook(absent.egressId, 'egress_ended', EgressStatus.EGRESS_FAILED)).error).toBe(
      'the participant published nothing to record',
    );
  });
});
