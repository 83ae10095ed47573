/**
 * What the media server's tests send and sign with LiveKit's own SDKs: tokens for the server's
 * key pair, and a sine (with grey frames) fed into @livekit/rtc-node sources.
 */
import {
  AudioFrame,
  AudioSource,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame,
  VideoSource,
} from '@livekit/rtc-node';
import { AccessToken, type VideoGrant } from 'livekit-server-sdk';

/** A token to join `room` as `identity`, signed with `keys`; `grant` adds to or overrides the join grant. */
export async function mediaToken(
  keys: { apiKey: string; apiSecret: string },
  room: string,
  identity: string,
  { grant = {}, name, metadata }: { grant?: Partial<VideoGrant>; name?: string; metadata?: string } = {},
) {
  const at = new AccessToken(keys.apiKey, keys.apiSecret, { identity, name, metadata });
  at.addGrant({ roomJoin: true, room, ...grant });
  return at.toJwt();
}

/**
 * Feeds a 440 Hz sine into `audio` in 10 ms frames (paced by the source) and, with `video`, a
 * grey frame every 40 ms while `video.on()` says so, until the returned stop is called.
 */
export function feedSine(
  audio: AudioSource,
  video?: { source: VideoSource; width: number; height: number; on?: () => boolean },
) {
  let running = true;
  const fed = (async () => {
    let phase = 0;
    const picture = video && new Uint8Array(video.width * video.height * 4).fill(128);
    for (let tick = 0; running; tick++) {
      const samples = new Int16Array(480);
      for (let i = 0; i < samples.length; i++) {
        phase += (2 * Math.PI * 440) / 48000;
        samples[i] = Math.round(8000 * Math.sin(phase));
      }
      await audio.captureFrame(new AudioFrame(samples, 48000, 1, samples.length));
      if (video && picture && tick % 4 === 0 && (video.on?.() ?? true))
        video.source.captureFrame(new VideoFrame(picture, video.width, video.height, VideoBufferType.RGBA));
    }
  })();
  return async () => {
    running = false;
    await fed;
  };
}

/**
 * An rtc-node participant publishing a microphone (a sine) and a camera (grey 64×48 frames), fed
 * until it leaves (once, however often `leave` is called).
 */
export async function micAndCameraPublisher({ url, token }: { url: string; token: string }) {
  const room = new Room();
  await room.connect(url, token, { autoSubscribe: false, dynacast: false });
  const audio = new AudioSource(48000, 1);
  const video = new VideoSource(64, 48);
  const mic = await room.localParticipant!.publishTrack(
    LocalAudioTrack.createAudioTrack('microphone', audio),
    new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
  );
  const camera = await room.localParticipant!.publishTrack(
    LocalVideoTrack.createVideoTrack('camera', video),
    new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA }),
  );
  const stopFeeding = feedSine(audio, { source: video, width: 64, height: 48 });
  let left: Promise<void> | undefined;
  return {
    room,
    mic,
    camera,
    leave: () =>
      (left ??= (async () => {
        await stopFeeding();
        await room.disconnect();
      })()),
  };
}
