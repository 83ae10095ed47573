import os from 'node:os';
import { Connection, UdpTransport } from 'werift';

/**
 * werift's ICE options for every peer connection the media server makes: the machine's own IPv4
 * host addresses, no STUN (a client reaches the host addresses; a STUN lookup before each answer
 * only delayed it; see below) and no IPv6.
 *
 * Loopback is offered only on a machine with no other IPv4 address. werift binds every candidate's
 * socket to all addresses, so a check a browser sends to a 127.0.0.1 candidate is answered from the
 * machine's other address; the browser drops an answer that does not come from where its check
 * went, checks again about 50 ms later on the peer-reflexive pair, and its DTLS waits for that.
 */
export function iceOptions() {
  const external = Object.values(os.networkInterfaces()).some((addresses) =>
    addresses?.some((a) => a.family === 'IPv4' && !a.internal),
  );
  return { iceAdditionalHostAddresses: external ? [] : ['127.0.0.1'], iceServers: [], iceUseIpv6: false };
}

/**
 * No STUN server means none, as in a browser and on LiveKit: werift 0.25 puts stun.l.google.com in
 * the place of a missing one, so `iceServers: []` above still had every answer wait for a DNS
 * lookup and a STUN request to Google before it went out — 23 ms of each join's answer here, where
 * the name does not resolve; a round trip to Google where it does; up to werift's 5 s STUN timeout
 * where the name resolves and the packets go nowhere (a firewall).
 */
type StunServers = { options: { stunServer?: unknown }; stunServer?: unknown };
const stunDefaults = Connection.prototype as unknown as { applyStunTurnServersFromOptions(this: StunServers): void };
const { applyStunTurnServersFromOptions } = stunDefaults;
stunDefaults.applyStunTurnServersFromOptions = function (this: StunServers) {
  applyStunTurnServersFromOptions.call(this);
  if (!this.options.stunServer) this.stunServer = undefined;
};

/**
 * Once a pair is nominated, ICE is over for the component (RFC 8445 §8.1.2): no pair is left to
 * check. werift's agent went on checking pairs the client trickled or was learned from, one every
 * 20 ms, and concluded — starting DTLS — only when none was left, tens of ms into every join.
 */
const { schedulingChecks } = Connection.prototype as unknown as { schedulingChecks: () => boolean };
(Connection.prototype as unknown as { schedulingChecks: () => boolean }).schedulingChecks = function (
  this: Connection,
) {
  return this.nominated ? false : schedulingChecks.call(this);
};

/**
 * A client's mDNS host candidates (`<uuid>.local`, which Firefox writes until a page is granted a
 * camera, and Chromium without that grant) are ignored, as LiveKit does unless told otherwise: a
 * server cannot resolve a name on the client's own network, and the client reaches this server's
 * host candidates itself (its address is then learnt from its checks). werift asked the network
 * for each such name and waited up to 10 s per candidate — inside setRemoteDescription for those
 * trickled before the offer was applied — so a Firefox join stalled until the client gave up.
 */
const { addRemoteCandidate } = Connection.prototype;
Connection.prototype.addRemoteCandidate = function (this: Connection, candidate) {
  if (candidate?.host.endsWith('.local')) return Promise.resolve();
  return addRemoteCandidate.call(this, candidate);
};

/**
 * Each ICE socket's receive buffer, asked of the kernel (which caps it at net.core.rmem_max; LiveKit
 * asks operators for at least 5 MB there). Linux's default, 208 KiB, holds about 90 packets: 0.3–0.6 s
 * of one participant's camera and microphone. Two Firefox people in one call on a 2-core machine
 * stalled this process that long, the kernel dropped what came meanwhile — key frames, and the
 * answers to this server's consent checks (below) — and the call froze. 2 MiB rides out a stall of
 * seconds; a packet then waits in the buffer instead of being lost.
 */
export const ICE_RECEIVE_BUFFER_BYTES = 2 * 1024 * 1024;

const { init } = UdpTransport;
UdpTransport.init = async function (...args: Parameters<typeof init>) {
  const transport = await init.apply(this, args);
  try {
    transport.socket.setRecvBufferSize(ICE_RECEIVE_BUFFER_BYTES);
  } catch {
    // A platform that refuses the size keeps its default.
  }
  return transport;
};

/**
 * Consent to send (RFC 7675) lapses only when the client has gone quiet, as on LiveKit (pion counts
 * every packet a pair receives as a sign of life): werift failed the connection — and sent nothing
 * more to it, ever — when 30 s passed without an answer to its own consent checks, even while the
 * client's media and its own consent checks kept arriving. Answers lost to a stalled process (above)
 * froze a participant's view of the call for good while their camera still reached everyone. A pair
 * that received data since its last consent period began starts a new one instead; one that
 * received nothing fails as before.
 */
type ConsentInternals = {
  state: string;
  consentFresh: boolean;
  nominated?: { packetsReceived: number; protocol: { transport?: { type: string } } };
  queryConsent: () => void;
  setState: (state: string) => void;
};
const receivedAtConsentStart = new WeakMap<object, number>();
const connection = Connection.prototype as unknown as ConsentInternals;
const { setState } = connection;
connection.setState = function (this: ConsentInternals, state) {
  const pair = this.nominated;
  // Consent expiry clears consentFresh just before it fails the connection (a closed TCP pair does
  // too; this server's ICE is UDP only).
  if (state === 'failed' && pair?.protocol.transport?.type === 'udp' && !this.consentFresh && this.state !== 'closed') {
    const before = receivedAtConsentStart.get(pair) ?? 0;
    if (pair.packetsReceived > before) {
      receivedAtConsentStart.set(pair, pair.packetsReceived);
      this.queryConsent();
      return;
    }
  }
  setState.call(this, state);
};
