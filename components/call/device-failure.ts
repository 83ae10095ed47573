// Free of livekit-client: the pre-join's first load imports it (a room's failures: room-device-failures.ts).

/** Why a camera or microphone did not start, as a participant can act on it. */
export type DeviceFailure = 'denied' | 'notFound' | 'inUse' | 'other';
export type DeviceKind = 'camera' | 'microphone';

/** getUserMedia's error, by its DOMException name (older names from Chrome and Firefox beside). */
export function deviceFailure(error: unknown): DeviceFailure {
  switch ((error as { name?: string } | null)?.name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'notFound';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'inUse';
    default:
      return 'other';
  }
}
