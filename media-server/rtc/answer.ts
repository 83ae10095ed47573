import { DtlsServer, type RTCDtlsTransport, type RTCPeerConnection } from 'werift';
import { answerClientHelloAtOnce, type DtlsServerInternals } from './dtls-hello';
import { sectionsOf } from './offer';

/**
 * Answers the remote offer as the DTLS server (a=setup:passive, which RFC 5763 allows an answerer).
 * As the DTLS client werift waits a fixed 100 ms after ICE connects before its ClientHello; as the
 * server it answers the browser's ClientHello as soon as it comes. A role once taken is kept
 * through renegotiation.
 */
export async function answerAsDtlsServer(pc: RTCPeerConnection) {
  for (const transport of pc.dtlsTransports)
    if (transport.role === 'auto' && transport.state === 'new') transport.role = 'server';
  handOverEarlyHandshakes(pc);
  await pc.setLocalDescription(await pc.createAnswer());
}

const watched = new WeakSet<RTCDtlsTransport>();

/**
 * Keeps what a client sends before werift's DTLS server starts on each of pc's transports not
 * started yet (handOverEarlyHandshake): on an answer, and on v0 after this server's own offer (the
 * browser answers it as the DTLS client).
 */
export function handOverEarlyHandshakes(pc: RTCPeerConnection) {
  for (const transport of pc.dtlsTransports) {
    if (transport.state !== 'new' || watched.has(transport)) continue;
    watched.add(transport);
    handOverEarlyHandshake(transport);
  }
}

/**
 * A client's first flight is a ClientHello in a few records, each within a packet's MTU: more, or
 * bigger, before the server starts is not a handshake, and is not kept.
 */
const EARLY_RECORDS_KEPT = 8;
const EARLY_RECORD_MAX_BYTES = 1500;

/**
 * A browser sends its ClientHello the moment its first ICE check is answered; werift starts its DTLS
 * server only once ICE has concluded (a few ms later, more on a busy event loop) and drops what came
 * before, so the handshake waited for the browser's retransmission, 50–100 ms. What arrives before
 * the server starts is kept and handed to it as it starts, in the order it came: nothing newer can
 * reach the server before it (the hand-over runs before the next packet is read).
 */
function handOverEarlyHandshake(transport: RTCDtlsTransport) {
  const kept: Buffer[] = [];
  const isDtlsRecord = (data: Buffer) => data[0] > 19 && data[0] < 64; // RFC 7983's demultiplexing
  const keeping = transport.iceTransport.connection.onData.subscribe((data) => {
    if (transport.dtls || !isDtlsRecord(data)) return;
    if (kept.length < EARLY_RECORDS_KEPT && data.length <= EARLY_RECORD_MAX_BYTES) kept.push(data);
  });
  const starting = transport.onStateChange.subscribe((state) => {
    if (state === 'new') return;
    keeping.unSubscribe();
    starting.unSubscribe();
    // "connecting" is announced just before werift makes its DTLS server, in the same turn.
    if (state === 'connecting')
      queueMicrotask(() => {
        if (transport.dtls instanceof DtlsServer)
          answerClientHelloAtOnce(transport.dtls as unknown as DtlsServerInternals);
        // The records came over the pair ICE concluded on; werift's server reads only their bytes.
        const from = transport.iceTransport.connection.nominated?.remoteAddr;
        if (from) for (const record of kept.splice(0)) transport.dtls?.transport.socket.onData(record, from);
      });
  });
}

/**
 * A description this server wrote, with the sections of `mids` sending nothing: inactive, without
 * the msid that names a track. A track can go (its publisher left) while werift writes the
 * description that sends it; the client, told of the departure first, then got a section for
 * someone no longer there (livekit-client logs an error, and the track hangs unbound).
 */
export function withSectionsStopped(sdp: string, mids: string[]) {
  if (!mids.length) return sdp;
  return sectionsOf(sdp)
    .map((section) => {
      const mid = /\r\na=mid:(\S+)/.exec(section)?.[1];
      if (mid === undefined || !mids.includes(mid)) return section;
      return section
        .split('\r\n')
        .filter((line) => !line.startsWith('a=msid:') && !/^a=ssrc:\d+ msid:/.test(line))
        .map((line) => (/^a=(sendrecv|sendonly)$/.test(line) ? 'a=inactive' : line))
        .join('\r\n');
    })
    .join('\r\n');
}
