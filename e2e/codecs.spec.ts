import { test, expect } from '@playwright/test';
import { Room } from '@livekit/rtc-node';
import { capturePeerConnections, enter, person, REMOTE_CAMERA_VIDEOS } from './support/call';
import { createTenant } from './support/tenant';
import { publishChangingCamera, VIDEO_CODECS } from '../test/support/rtc-node-media';

/**
 * Every codec LiveKit carries, as the hosted call UI shows it: LiveKit's own Node SDK
 * (@livekit/rtc-node), joined through the API as a participant of a Convene room, publishes a
 * 320×240 camera whose picture changes (simulcast off) in VP8, H.264, VP9 and AV1 in turn; the
 * Chromium person in the call sees each in the remote tile at the size sent, its picture changing,
 * and the page's own statistics say it decodes the codec sent (test/media-server/codecs.test.ts
 * proves the same to a second rtc-node participant and to a bare livekit-client page).
 */
const WIDTH = 320;
const HEIGHT = 240;

/** The remote camera tile now, read in the page: its track, size, frames decoded and the brightness at its centre. */
function remoteCamera(selector: string) {
  const video = document.querySelector<HTMLVideoElement>(selector);
  const track = (video?.srcObject as MediaStream | null)?.getVideoTracks()[0];
  if (!video || !track || !video.videoWidth) return null;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 8;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(video, 0, 0, 8, 8);
  return {
    track: track.id,
    size: `${video.videoWidth}x${video.videoHeight}`,
    frames: video.getVideoPlaybackQuality().totalVideoFrames,
    brightness: context.getImageData(4, 4, 1, 1).data[0],
  };
}

/** The codec the page's peer connections (capturePeerConnections) decode the video track `trackId` in (its inbound-rtp's codec). */
async function decodedCodec(trackId: string) {
  for (const connection of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    const stats = [...(await connection.getStats()).values()];
    // A receiver is reused from one publication to the next: the stream that had a packet last.
    const [inbound] = stats
      .filter((s) => s.type === 'inbound-rtp' && s.trackIdentifier === trackId)
      .sort((a, b) => (b.lastPacketReceivedTimestamp ?? 0) - (a.lastPacketReceivedTimestamp ?? 0));
    if (inbound) return stats.find((s) => s.id === inbound.codecId)?.mimeType as string | undefined;
  }
  return undefined;
}

test('a camera published in VP8, H.264, VP9 and AV1 in turn is seen in the hosted call at the size sent, its picture changing', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const tenant = await createTenant('Codecs');
  const roomId = await tenant.room();
  const chris = await person(browser);
  await chris.addInitScript(capturePeerConnections);
  const errors: string[] = [];
  chris.on('pageerror', (err) => errors.push(err.message));
  await enter(chris, await tenant.joinUrl(roomId, 'Chris'));

  const joined = await tenant.api('POST', `/api/v1/rooms/${roomId}/join`, {
    externalUserId: 'camera-bot',
    displayName: 'Camera bot',
  });
  expect(joined.status).toBe(200);
  const publisher = new Room();
  await publisher.connect(joined.body.mediaUrl, joined.body.token, { autoSubscribe: false, dynacast: false });
  try {
    for (const [codec, mimeType] of VIDEO_CODECS) {
      const camera = await publishChangingCamera(publisher, { codec, width: WIDTH, height: HEIGHT });
      try {
        // The tile (empty since the last publication went) at the size sent, decoding, and at
        // least four shades of the picture.
        const shades = new Set<number>();
        let seen: ReturnType<typeof remoteCamera> = null;
        await expect
          .poll(
            async () => {
              seen = await chris.evaluate(remoteCamera, REMOTE_CAMERA_VIDEOS);
              if (!seen) return `${mimeType}: not shown yet`;
              shades.add(seen.brightness);
              return `${mimeType}: ${seen.size}, ${seen.frames > 10 ? 'decoding' : 'starting'}, ${shades.size >= 4 ? 'changing' : 'not changing yet'}`;
            },
            { timeout: 30_000 },
          )
          .toBe(`${mimeType}: ${WIDTH}x${HEIGHT}, decoding, changing`);
        const shown = seen as unknown as NonNullable<ReturnType<typeof remoteCamera>>;
        expect((await chris.evaluate(decodedCodec, shown.track))?.toLowerCase()).toBe(mimeType.toLowerCase());
      } finally {
        camera.stop();
        await publisher.localParticipant!.unpublishTrack(camera.sid);
      }
      await expect.poll(() => chris.evaluate(remoteCamera, REMOTE_CAMERA_VIDEOS), { timeout: 15_000 }).toBeNull();
    }
  } finally {
    await publisher.disconnect();
  }
  expect(errors).toEqual([]);
  await chris.context().close();
});
