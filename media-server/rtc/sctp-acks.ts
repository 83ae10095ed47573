/**
 * Coalesced SCTP acknowledgements for werift's association. werift 0.25 acknowledges every
 * received DATA chunk at once (its receiveDataChunk always asks for an immediate SACK), and has no
 * option for delayed acknowledgement: a participant sending a 14 KB data packet (12 chunks) cost 12
 * SACKs, each serialised, DTLS-encrypted and sent — about a tenth of this process's time in a data
 * flood. Here the SACK goes out once the datagrams already received have been read (setImmediate,
 * well under a millisecond later) and covers them all, as usrsctp and dcsctp acknowledge a burst.
 * A thin wrapper on the instance, not a patch of werift: if werift's internals change, it leaves
 * the association as it is.
 */
import type { RTCPeerConnection } from 'werift';

/** What this uses of werift's SCTP association (private members there). */
interface SctpAssociation {
  scheduleSack(): Promise<void>;
  sendSack(): Promise<void>;
  sackTimeout?: NodeJS.Timeout;
}

const coalesced = new WeakSet<object>();

/** Coalesces the SACKs of `pc`'s SCTP association (once per association; a no-op before it exists). */
export function coalesceSacks(pc: RTCPeerConnection) {
  const sctp = pc.sctpTransport?.sctp as unknown as Partial<SctpAssociation> | undefined;
  if (!sctp || coalesced.has(sctp)) return;
  if (typeof sctp.scheduleSack !== 'function' || typeof sctp.sendSack !== 'function') return;
  coalesced.add(sctp);
  const association = sctp as SctpAssociation;
  let queued = false;
  association.scheduleSack = async () => {
    // werift's own delayed path (a 200 ms timer) is not used: the SACK below is sooner.
    if (association.sackTimeout) {
      clearTimeout(association.sackTimeout);
      association.sackTimeout = undefined;
    }
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      // sendSack does nothing once the association stopped or when nothing is left to acknowledge.
      association.sendSack().catch(() => undefined);
    });
  };
}
