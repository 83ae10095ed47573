import { route } from '@/lib/http/route';
import { receiveCaptionSegments } from '@/lib/domain/captions';
import { captionSegmentsInput, captionSegmentsResponse } from '@/lib/domain/captions.schemas';

// The captions worker's own endpoint: its media token of the room is its credential (checked in the domain).
export const POST = route(
  {
    tag: 'Captions',
    summary: "The captions worker's final segments, kept as the meeting's live transcript (agent's media token)",
    auth: { kind: 'none', perAddressPerSecond: 100 },
    body: captionSegmentsInput,
    response: captionSegmentsResponse,
  },
  ({ req, body }) => receiveCaptionSegments(req.headers.get('authorization'), body),
);
