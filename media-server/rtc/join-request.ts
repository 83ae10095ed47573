/**
 * v1 signaling's join request: `/rtc/v1?join_request=<base64url WrappedJoinRequest>`, its inner
 * JoinRequest gzip'd when the client could compress. It carries the client's first offer.
 */
import { gunzipSync } from 'node:zlib';
import { JoinRequest, WrappedJoinRequest, WrappedJoinRequest_Compression } from '@livekit/protocol';

/** A join request inflates to at most this: an offer of a few hundred m-lines, not a bomb. */
const MAX_JOIN_REQUEST_BYTES = 1024 * 1024;

export class JoinRequestError extends Error {}

export function decodeJoinRequest(param: string | null): JoinRequest {
  if (!param) throw new JoinRequestError('join_request is required on /rtc/v1');
  let wrapped: WrappedJoinRequest;
  try {
    wrapped = WrappedJoinRequest.fromBinary(Buffer.from(param, 'base64url'));
  } catch (err) {
    throw new JoinRequestError(`join_request is not a WrappedJoinRequest: ${(err as Error).message}`);
  }
  let bytes = wrapped.joinRequest;
  if (wrapped.compression === WrappedJoinRequest_Compression.GZIP) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_JOIN_REQUEST_BYTES });
    } catch (err) {
      throw new JoinRequestError(`join_request does not inflate: ${(err as Error).message}`);
    }
  } else if (wrapped.compression !== WrappedJoinRequest_Compression.NONE) {
    throw new JoinRequestError(`join_request compression ${wrapped.compression} is not supported`);
  }
  try {
    return JoinRequest.fromBinary(bytes);
  } catch (err) {
    throw new JoinRequestError(`join_request is not a JoinRequest: ${(err as Error).message}`);
  }
}
