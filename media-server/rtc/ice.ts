import os from 'node:os';
import { Connection } from 'werift';

/**
 * werift's ICE options for every peer connection the media server makes: the machine's own IPv4
 * host addresses, no STUN (a client reaches the host addresses; a STUN lookup before each answer
 * only delayed it) and no IPv6.
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
