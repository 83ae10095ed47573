/**
 * The event catalogue. Names relayed from the media layer and platform events from the spec,
 * plus additive call.* lifecycle names. A tenant's webhookEvents filter may name only these.
 */
export const EVENT_NAMES = [
  'room.started',
  'room.finished',
  'participant.joined',
  'participant.left',
  'participant.waiting',
  'egress.started',
  'egress.ended',
  'ingress.started',
  'ingress.ended',
  'recording.completed',
  'recording.failed',
  'transcript.ready',
  'call.queued',
  'call.ringing',
  'call.accepted',
  'call.forwarded',
  'call.ended',
  'call.cancelled',
  'call.missed',
  'webhook.test',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}
