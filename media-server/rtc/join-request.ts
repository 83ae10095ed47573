/**
 * v1 signaling's join request: `/rtc/v1?join_request=<base64url WrappedJoinRequest>`, its inner
 * JoinRequest gzip'd when the client could compress. It carries the client's first offer.
 *
 * Read only after the token is checked, and bounded before it is decoded: protobuf decoding costs
 * one object per field on the wire, and a 1.3 KB URL once inflated to 500,000 empty add-track
 * requests (seconds of a frozen process). The wire is walked first — a cheap loop that builds
 * nothing — counting every field, and every entry of each repeated field.
 */
import { gunzipSync } from 'node:zlib';
import { JoinRequest, WrappedJoinRequest, WrappedJoinRequest_Compression } from '@livekit/protocol';
import { SESSION_LIMITS } from './limits';

export const JOIN_REQUEST_LIMITS = {
  /** The base64url text: Node's own 16 KiB request-head limit holds it already; said here once more. */
  paramChars: 16 * 1024,
  /**
   * The JoinRequest's bytes, inflated: as much as one SDP may be (SESSION_LIMITS.sdpBytes); a join's
   * offer is far less (livekit-client's holds its data channel and a few sections).
   */
  joinRequestBytes: 256 * 1024,
  /** Fields on the wire in all, nested ones and packed entries included (a real join has ~100). */
  fields: 4096,
  /** Entries of any one repeated field or map. */
  repeatedEntries: 128,
  /** Add-track requests: no more than a participant may publish. */
  addTrackRequests: SESSION_LIMITS.tracksPerParticipant,
};

export class JoinRequestError extends Error {}

/** A protobuf message's schema, as the generated classes carry it. */
type Schema = { typeName: string; fields: (typeof JoinRequest)['fields'] };
type Field = NonNullable<ReturnType<Schema['fields']['find']>>;

export function decodeJoinRequest(param: string | null): JoinRequest {
  if (!param) throw new JoinRequestError('join_request is required on /rtc/v1');
  if (param.length > JOIN_REQUEST_LIMITS.paramChars)
    throw new JoinRequestError(`join_request over ${JOIN_REQUEST_LIMITS.paramChars} characters`);
  const raw = Buffer.from(param, 'base64url');
  // The wrapper has two fields: a walk of it costs nothing and bounds what its decoding builds.
  checkWire(raw, WrappedJoinRequest);
  let wrapped: WrappedJoinRequest;
  try {
    wrapped = WrappedJoinRequest.fromBinary(raw);
  } catch (err) {
    throw new JoinRequestError(`join_request is not a WrappedJoinRequest: ${(err as Error).message}`);
  }
  let bytes = wrapped.joinRequest;
  if (wrapped.compression === WrappedJoinRequest_Compression.GZIP) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: JOIN_REQUEST_LIMITS.joinRequestBytes });
    } catch (err) {
      const tooLarge = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw new JoinRequestError(
        tooLarge
          ? `join_request inflates past ${JOIN_REQUEST_LIMITS.joinRequestBytes} bytes`
          : `join_request does not inflate: ${(err as Error).message}`,
      );
    }
  } else if (wrapped.compression !== WrappedJoinRequest_Compression.NONE) {
    throw new JoinRequestError(`join_request compression ${wrapped.compression} is not supported`);
  }
  if (bytes.length > JOIN_REQUEST_LIMITS.joinRequestBytes)
    throw new JoinRequestError(`join_request over ${JOIN_REQUEST_LIMITS.joinRequestBytes} bytes`);
  checkWire(bytes, JoinRequest);
  try {
    return JoinRequest.fromBinary(bytes);
  } catch (err) {
    throw new JoinRequestError(`join_request is not a JoinRequest: ${(err as Error).message}`);
  }
}

/**
 * Walks a message's protobuf wire format (nested messages by their schema) and throws a
 * JoinRequestError when it holds more fields than JOIN_REQUEST_LIMITS allows, in all or in one
 * repeated field. Malformed wire is left to the decoder, which refuses it.
 */
function checkWire(bytes: Uint8Array, type: Schema) {
  const budget = { fields: 0 };
  walk(bytes, 0, bytes.length, type, budget);
}

function walk(bytes: Uint8Array, start: number, end: number, type: Schema, budget: { fields: number }) {
  const entries = new Map<Field, number>();
  let pos = start;
  const varint = () => {
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= end) throw new JoinRequestError(`join_request is not a ${type.typeName}: truncated varint`);
      const byte = bytes[pos++];
      if (shift < 49) value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new JoinRequestError(`join_request is not a ${type.typeName}: varint too long`);
  };
  const spend = (count: number) => {
    budget.fields += count;
    if (budget.fields > JOIN_REQUEST_LIMITS.fields)
      throw new JoinRequestError(`join_request holds over ${JOIN_REQUEST_LIMITS.fields} fields`);
  };
  while (pos < end) {
    const tag = varint();
    const wireType = tag % 8;
    const field = type.fields.find(Math.floor(tag / 8));
    let count = 1;
    let nested: { from: number; to: number } | undefined;
    if (wireType === 0) varint();
    else if (wireType === 1) pos += 8;
    else if (wireType === 5) pos += 4;
    else if (wireType === 2) {
      const length = varint();
      if (length > end - pos) throw new JoinRequestError(`join_request is not a ${type.typeName}: field past its end`);
      if (field?.kind === 'message') nested = { from: pos, to: pos + length };
      // A packed repeated number: at least one byte an entry.
      else if (
        field?.repeated &&
        field.kind !== 'map' &&
        !(field.kind === 'scalar' && (field.T === 9 || field.T === 12))
      )
        count = Math.max(1, length);
      pos += length;
    } else throw new JoinRequestError(`join_request is not a ${type.typeName}: wire type ${wireType}`);
    if (pos > end) throw new JoinRequestError(`join_request is not a ${type.typeName}: field past its end`);
    spend(count);
    if (field && (field.repeated || field.kind === 'map')) {
      const seen = (entries.get(field) ?? 0) + count;
      entries.set(field, seen);
      const limit =
        type === JoinRequest && field.no === 5
          ? JOIN_REQUEST_LIMITS.addTrackRequests
          : JOIN_REQUEST_LIMITS.repeatedEntries;
      if (seen > limit)
        throw new JoinRequestError(`join_request holds over ${limit} ${type.typeName}.${field.name} entries`);
    }
    if (nested && field?.kind === 'message') walk(bytes, nested.from, nested.to, field.T, budget);
  }
}
