import type { RTCPeerConnection } from 'werift';

/**
 * Answers the remote offer as the DTLS server (a=setup:passive, which RFC 5763 allows an answerer).
 * As the DTLS client werift waits a fixed 100 ms after ICE connects before its ClientHello; as the
 * server it answers the browser's ClientHello as soon as it comes. A role once taken is kept
 * through renegotiation.
 */
export async function answerAsDtlsServer(pc: RTCPeerConnection) {
  for (const transport of pc.dtlsTransports)
    if (transport.role === 'auto' && transport.state === 'new') transport.role = 'server';
  await pc.setLocalDescription(await pc.createAnswer());
}
