import {
  ExternalE2EEKeyProvider,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  RoomEvent,
  Track,
  type TrackPublication,
} from 'livekit-client';
import type { JoinChoices } from '@/components/call/PreJoinForm';
import { CAMERA_CONSTRAINTS } from '@/components/call/useCapture';
import { watchDeviceFailures } from '@/components/call/room-device-failures';
import { gateDataStreams } from '@/components/call/data-stream-gate';

/**
 * The most a data stream from another participant may inflate to (livekit-client's default is
 * 5 GB): a compressed stream of a few KB can otherwise grow to gigabytes in the tab. The call reads
 * streams only for captions (a line is at most a few hundred characters, a segment's stream a few
 * KB); chat and live updates travel as single packets, bounded by parseLiveMessage.
 */
export const DATA_STREAM_MAX_BYTES = 16 * 1024;

/** How long the call waits for the join's first exchanges before it renders anyway (a slow network). */
const FIRST_EXCHANGES_WAIT_MS = 1000;

/**
 * Makes the call's room and starts connecting it the moment the person is let in, before the call
 * renders; LiveKitRoom's own connect joins this attempt (livekit-client returns the one in
 * progress) and reports its failure. `firstExchanges` resolves when the join's first exchanges
 * are done: what the person turned on is published (or failed), or with nothing to publish the
 * room has connected; at once when the attempt fails, and after a second at most. The call
 * renders then: its first render holds the page's one thread for ~100 ms, and the signaling
 * answers and the publication's offer waiting behind it made every join later by as much, for
 * the joiner and for everyone already in. On v1 the connection is up before the publication's
 * answer comes, so the call waits for the answer, not for the connection.
 */
export function startCall({
  token,
  serverUrl,
  e2eeKey,
  choices,
  canPublish,
}: {
  token: string;
  serverUrl: string;
  e2eeKey: string | null;
  choices: JoinChoices;
  canPublish: boolean;
}): { room: Room; firstExchanges: Promise<void> } {
  let room: Room;
  let ready = Promise.resolve();
  const options = { adaptiveStream: true, dynacast: true, dataStream: { maxPayloadByteLength: DATA_STREAM_MAX_BYTES } };
  if (!e2eeKey) room = new Room(options);
  else {
    const keyProvider = new ExternalE2EEKeyProvider();
    const worker = new Worker(new URL('livekit-client/e2ee-worker', import.meta.url));
    room = new Room({ ...options, encryption: { keyProvider, worker } });
    ready = keyProvider.setKey(e2eeKey).then(() => room.setE2EEEnabled(true));
  }
  watchDeviceFailures(room);
  gateDataStreams(room);
  let published: (publications: Promise<unknown>) => void = () => undefined;
  const publications = new Promise<unknown>((resolve) => {
    published = resolve;
  });
  if (canPublish) room.on(RoomEvent.SignalConnected, () => published(publishChoices(room, choices)));
  const connecting = ready.then(() => room.connect(serverUrl, token));
  const connected = connecting.then(
    () => true,
    () => false,
  );
  // Only a failure ends the wait early: the connection is up (ICE, DTLS) before the publication's
  // answer comes, and a render begun then held that answer, and so everyone's first sight of the
  // joiner, for as long as the render took.
  const failed = connected.then((ok) => (ok ? new Promise<void>(() => undefined) : undefined));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const firstExchanges = Promise.race([
    canPublish ? publications : connected,
    failed,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FIRST_EXCHANGES_WAIT_MS);
    }),
  ]).then(() => clearTimeout(timer));
  return { room, firstExchanges };
}

/**
 * The pre-join microphone as the call publishes it. livekit-client checks a new microphone track for
 * silence twice — when the track is made and again when it is published — each time opening an
 * AudioContext of its own (its audio thread, a quarter of a second of listening) in the middle of
 * the join, where a profile of the joiner's page put ~20 ms of its one thread and the audio threads
 * beside it. The call does not use what the check reports (livekit-client's
 * LocalAudioSilenceDetected): the pre-join showed the person their microphone's level, and a mic
 * that fails is told by room-device-failures.ts. A microphone livekit-client captures itself (no
 * preview capture) keeps the check.
 */
class PreviewMicrophoneTrack extends LocalAudioTrack {
  override async checkForSilence() {
    return false;
  }
}

/**
 * Publishes what the person turned on, once the room has signaled: the pre-join preview's running
 * captures as they are (no second getUserMedia: a real camera takes 0.3–1 s to start, and its light
 * would blink), else a new capture of the chosen device. The tracks are made as livekit-client
 * makes its own (not "user provided"): turning the camera off stops it, on captures the same
 * device again. A device that fails leaves the person in the call with it off.
 */
function publishChoices(room: Room, choices: JoinChoices): Promise<unknown> {
  const local = room.localParticipant;
  const publishing: Promise<unknown>[] = [];
  const wanted: [Track.Source, 'audio' | 'video', boolean, string | undefined][] = [
    [Track.Source.Microphone, 'audio', choices.audioEnabled, choices.audioDeviceId],
    [Track.Source.Camera, 'video', choices.videoEnabled, choices.videoDeviceId],
  ];
  for (const [source, kind, enabled, deviceId] of wanted) {
    // Signaled again (a reconnect) with it already published: livekit-client has it in hand.
    if (!enabled || (local.getTrackPublication(source) as TrackPublication | undefined)) continue;
    const capture = choices.captures.find((c) => c.kind === kind && c.readyState === 'live');
    if (!capture) {
      const device = deviceId ? { deviceId } : undefined;
      publishing.push(
        (kind === 'video' ? local.setCameraEnabled(true, device) : local.setMicrophoneEnabled(true, device)).catch(
          () => undefined,
        ),
      );
      continue;
    }
    const settings = { deviceId: capture.getSettings().deviceId };
    const track =
      kind === 'video'
        ? new LocalVideoTrack(capture, { ...CAMERA_CONSTRAINTS, ...settings }, false)
        : new PreviewMicrophoneTrack(capture, settings, false);
    publishing.push(local.publishTrack(track, { source }).catch(() => track.stop()));
  }
  return Promise.all(publishing);
}
