/**
 * A raw client of LiveKit's v1 signaling over werift: one WebSocket, one peer connection whose
 * first offer rides in the join request. It offers what its peer connection holds, so a test can
 * send what no SDK sends (an offer that leaves out an announced track, feedback signed as it likes).
 */
import { WebSocket } from 'ws';
import {
  type AddTrackRequest,
  JoinRequest,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  WrappedJoinRequest,
} from '@livekit/protocol';
import type { RTCPeerConnection } from 'werift';
import { until } from './until';

export async function v1Client(opts: {
  url: string;
  token: string;
  pc: RTCPeerConnection;
  /** Announced in the join request, beside its offer. */
  addTrackRequests?: AddTrackRequest[];
  /** Rewrites the first offer as sent (what the server reads of this client, e.g. its max-message-size). */
  rewriteOffer?: (sdp: string) => string;
}) {
  const { pc } = opts;
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription!.sdp;
  const join = new JoinRequest({
    publisherOffer: new SessionDescription({ type: 'offer', sdp: opts.rewriteOffer?.(sdp) ?? sdp, id: 1 }),
    addTrackRequests: opts.addTrackRequests ?? [],
  });
  const wrapped = Buffer.from(new WrappedJoinRequest({ joinRequest: join.toBinary() }).toBinary());
  const ws = new WebSocket(
    `${opts.url}/rtc/v1?access_token=${opts.token}&join_request=${wrapped.toString('base64url')}`,
  );
  const messages: SignalResponse['message'][] = [];
  ws.on('message', (data) => messages.push(SignalResponse.fromBinary(new Uint8Array(data as Buffer)).message));
  ws.on('error', () => undefined);
  const send = (message: SignalRequest['message']) => ws.send(new SignalRequest({ message }).toBinary());
  const count = (kind: SignalResponse['message']['case']) => messages.filter((m) => m.case === kind).length;
  /** Waits for the answer to offer number `offers` and applies it; returns it. */
  const answered = async (offers: number) => {
    await until(() => (count('answer') === offers ? true : undefined), `answer ${offers}`, 10_000);
    const answer = messages.filter((m) => m.case === 'answer').at(-1)!.value as SessionDescription;
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
    return answer;
  };
  await answered(1);
  return {
    messages,
    send,
    count,
    /** Offers what the peer connection holds now, as offer number `id`, and applies the answer. */
    async offer(id: number) {
      await pc.setLocalDescription(await pc.createOffer());
      send({ case: 'offer', value: new SessionDescription({ type: 'offer', sdp: pc.localDescription!.sdp, id }) });
      return answered(id);
    },
    async close() {
      ws.close();
      await pc.close();
    },
  };
}
