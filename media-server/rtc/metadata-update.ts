/**
 * A participant's own UpdateParticipantMetadata (name, metadata, attributes): within its grant and
 * LiveKit's limits, the room told of what changed.
 */
import { RequestResponse, RequestResponse_Reason, type UpdateParticipantMetadata } from '@livekit/protocol';
import { attributesBytes, type DevParticipant, type DevRoom, PARTICIPANT_LIMITS } from './room-state';

/**
 * Applies the request; returns the RequestResponse to send, if any: clients that number their
 * requests wait for the answer (the Rust SDK: 5 s, then an error). `refused` hears why a request
 * over a limit was refused.
 */
export function updateOwnMetadata(
  p: DevParticipant,
  room: DevRoom,
  req: UpdateParticipantMetadata,
  refused: (why: string) => void,
) {
  const answer = (reason: RequestResponse_Reason, message = '') =>
    req.requestId
      ? new RequestResponse({
          requestId: req.requestId,
          reason,
          message,
          // An oversized request is named by its id only, not echoed.
          request:
            reason === RequestResponse_Reason.LIMIT_EXCEEDED ? undefined : { case: 'updateMetadata', value: req },
        })
      : undefined;
  if (!p.permission.canUpdateMetadata)
    return answer(RequestResponse_Reason.NOT_ALLOWED, 'no canUpdateOwnMetadata grant');
  // LiveKit's limits (limit.max_participant_name_length, max_metadata_size, max_attributes_size);
  // the attributes bounded as they would stand after the update.
  const name = req.name || p.name;
  const metadata = req.metadata || p.metadata;
  const attributes = { ...p.attributes, ...req.attributes };
  const exceeded =
    Buffer.byteLength(name) > PARTICIPANT_LIMITS.nameBytes
      ? 'exceeds name length limit'
      : Buffer.byteLength(metadata) > PARTICIPANT_LIMITS.metadataBytes
        ? 'exceeds metadata size limit'
        : attributesBytes(attributes) > PARTICIPANT_LIMITS.attributesBytes
          ? 'exceeds attributes size limit'
          : undefined;
  if (exceeded) {
    refused(exceeded);
    return answer(RequestResponse_Reason.LIMIT_EXCEEDED, exceeded);
  }
  const changed =
    name !== p.name ||
    metadata !== p.metadata ||
    Object.entries(attributes).some(([key, value]) => p.attributes[key] !== value);
  if (changed) {
    p.name = name;
    p.metadata = metadata;
    p.attributes = attributes;
    p.touch();
    room.broadcastUpdate(p);
  }
  return answer(RequestResponse_Reason.OK);
}
