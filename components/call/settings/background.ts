import type { LocalVideoTrack } from 'livekit-client';
import type { BackgroundProcessorWrapper, SwitchBackgroundProcessorOptions } from '@livekit/track-processors';

/** What the camera shows behind the person. `image` is a URL the browser can load (https with CORS, or data:). */
export type BackgroundChoice = { kind: 'none' } | { kind: 'blur' } | { kind: 'image'; url: string };

const BLUR_RADIUS = 15;

/** Loads an image as the processor will (cross-origin, no credentials); rejects if it cannot be drawn. */
async function loadImage(url: string): Promise<void> {
  const image = new Image();
  image.crossOrigin = 'anonymous';
  image.referrerPolicy = 'no-referrer';
  image.src = url;
  await image.decode();
}
const PROCESSOR_NAME = 'convene-background';

/**
 * Background blur and virtual backgrounds with LiveKit's track processors: MediaPipe's
 * ImageSegmenter finds the person in each camera frame and WebGL blurs or replaces the rest; the
 * processed track is what is published. Everything comes from our origin (app/call-assets): the
 * vision runtime and the segmentation model. @livekit/track-processors (and MediaPipe) load on
 * the first choice only; "none" removes the processor, so the raw camera is sent again.
 */
export async function setBackground(track: LocalVideoTrack, choice: BackgroundChoice): Promise<void> {
  if (choice.kind === 'none') return track.stopProcessor();
  // The processor only logs an image it cannot load (and shows no background): load it first, so a
  // tenant image that is gone or served without CORS is an error the settings can show.
  if (choice.kind === 'image') await loadImage(choice.url);
  const mode: SwitchBackgroundProcessorOptions =
    choice.kind === 'blur'
      ? { mode: 'background-blur', blurRadius: BLUR_RADIUS }
      : { mode: 'virtual-background', imagePath: choice.url };
  const running = track.getProcessor();
  // One processor per camera: switching mode keeps the segmenter (no reload, no flash).
  if (running?.name === PROCESSOR_NAME) return (running as BackgroundProcessorWrapper).switchTo(mode);
  const { BackgroundProcessor, supportsBackgroundProcessors } = await import('@livekit/track-processors');
  if (!supportsBackgroundProcessors()) throw new Error('background processors are not supported in this browser');
  await track.setProcessor(
    BackgroundProcessor(
      {
        ...mode,
        assetPaths: {
          tasksVisionFileSet: `${location.origin}/call-assets`,
          modelAssetPath: `${location.origin}/call-assets/selfie_segmentation_landscape.tflite`,
        },
      },
      PROCESSOR_NAME,
    ),
  );
}
