/**
 * What the media server's tests send and sign with LiveKit's own SDKs: tokens for the server's
 * key pair, and a sine (with grey frames) or a changing picture fed into @livekit/rtc-node sources.
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
  VideoCodec,
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
 * Feeds `source` a grey picture of `width`×`height` a shade lighter every 40 ms (25 fps, wrapping
 * round), so a receiver can tell a moving picture from a frozen one; until the returned stop.
 */
function feedChangingPicture(source: VideoSource, width: number, height: number) {
  const picture = new Uint8Array(width * height * 4);
  let tick = 0;
  const timer = setInterval(() => {
    picture.fill(40 + ((tick++ * 6) % 180));
    source.captureFrame(new VideoFrame(picture, width, height, VideoBufferType.RGBA));
  }, 40);
  return () => clearInterval(timer);
}

/** The video codecs LiveKit carries: as rtc-node names them, and the MIME type a track announces. */
export const VIDEO_CODECS = [
  [VideoCodec.VP8, 'video/VP8'],
  [VideoCodec.H264, 'video/H264'],
  [VideoCodec.VP9, 'video/VP9'],
  [VideoCodec.AV1, 'video/AV1'],
] as const;

/**
 * Publishes from `room` a camera of `width`×`height` whose picture changes (feedChangingPicture),
 * in `codec`, simulcast off. `stop` ends the feed (unpublishing is the caller's).
 */
export async function publishChangingCamera(
  room: Room,
  { codec, width, height }: { codec: VideoCodec; width: number; height: number },
) {
  const source = new VideoSource(width, height);
  const stop = feedChangingPicture(source, width, height);
  const publication = await room.localParticipant!.publishTrack(
    LocalVideoTrack.createVideoTrack('camera', source),
    new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, videoCodec: codec, simulcast: false }),
  );
  return { sid: publication.sid!, stop };
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
