/**
 * werift's DTLS server answers every first ClientHello with a HelloVerifyRequest (RFC 6347 §4.2.1)
 * and starts the handshake only when the client sends its ClientHello again with the cookie: a
 * round trip more in every join (25 ms at the median of 30 joins on two busy cores, more in the
 * tail). The cookie proves a client can receive at the address it sends from; here the DTLS records
 * come over a pair ICE has already checked with the session's credentials, so the proof is had.
 * A browser's DTLS server (and LiveKit, which answers as DTLS client, meeting the browser's) sends
 * its ServerHello at once; so does this server now, as the RFC lets a server do.
 *
 * werift's server is driven through its own two steps: the cookie exchange's bookkeeping (the
 * hello's ciphers, curve and SRTP profile read, nothing sent), then the ServerHello flight for the
 * same hello. Two things differ from werift's second step: the handshake transcript holds the hello
 * as the client sent it (without a cookie), and the server's first message is numbered 0, as the
 * first message of each side is (RFC 6347 §4.2.2). A hello sent again before the client heard the
 * answer (a browser resends after 50 ms) is answered with the same flight.
 */

/** The parts of werift's handshake messages, DTLS context and server this drives (not in its typings). */
interface Handshake {
  msg_type: number;
  length: number;
  message_seq: number;
  fragment_offset: number;
  fragment_length: number;
  fragment: Buffer;
}

interface DtlsContext {
  flight: number;
  sequenceNumber: number;
  cookie?: Buffer;
  bufferHandshakeCache(handshakes: Handshake[], isLocal: boolean, flight: number): void;
}

export interface DtlsServerInternals {
  connected: boolean;
  dtls: DtlsContext;
  transport: unknown;
  onHandleHandshakes: (assembled: Handshake[]) => Promise<void>;
}

const CLIENT_HELLO = 1;
/** The answered flight: ServerHello, Certificate, ServerKeyExchange, CertificateRequest, ServerHelloDone. */
const SERVER_HELLO_FLIGHT = 4;

/** Where a ClientHello's cookie length sits: after its version (2), random (32) and session id (1 + n). */
const cookieOffset = (hello: Buffer) => 35 + hello[34];

/** The same hello carrying `cookie` (werift starts its ServerHello flight on a hello with its cookie). */
function withCookie(hello: Handshake, cookie: Buffer): Handshake {
  const at = cookieOffset(hello.fragment);
  const fragment = Buffer.concat([
    hello.fragment.subarray(0, at),
    Buffer.from([cookie.length]),
    cookie,
    hello.fragment.subarray(at + 1),
  ]);
  return Object.assign(Object.create(Object.getPrototypeOf(hello)) as Handshake, hello, {
    length: fragment.length,
    fragment_length: fragment.length,
    fragment,
  });
}

/**
 * Runs `fn` with the DTLS context's message numbering starting at 0 where werift starts it at 1 (its
 * first message was the HelloVerifyRequest): the first time `fn` sets the next number to 1, it is 0.
 */
function numberingFromZero(dtls: DtlsContext, fn: () => void) {
  let value = dtls.sequenceNumber;
  let moved = false;
  Object.defineProperty(dtls, 'sequenceNumber', {
    configurable: true,
    enumerable: true,
    get: () => value,
    set: (next: number) => {
      value = next === 1 && !moved ? 0 : next;
      moved ||= next === 1;
    },
  });
  try {
    fn();
  } finally {
    Object.defineProperty(dtls, 'sequenceNumber', { configurable: true, enumerable: true, writable: true, value });
  }
}

/** Runs `fn` with `replacement` kept in the handshake transcript wherever werift keeps `kept`. */
function transcriptHolding(dtls: DtlsContext, kept: Handshake, replacement: Handshake, fn: () => void) {
  const buffer = dtls.bufferHandshakeCache;
  dtls.bufferHandshakeCache = (handshakes, isLocal, flight) =>
    buffer.call(
      dtls,
      handshakes.map((h) => (h === kept ? replacement : h)),
      isLocal,
      flight,
    );
  try {
    fn();
  } finally {
    delete (dtls as Partial<DtlsContext>).bufferHandshakeCache; // the prototype's again
  }
}

/** Makes werift's DTLS server `server` answer a ClientHello without a cookie with its ServerHello flight. */
export function answerClientHelloAtOnce(server: DtlsServerInternals) {
  const handle = server.onHandleHandshakes;
  server.onHandleHandshakes = (assembled) => {
    const hello = assembled.length === 1 && assembled[0].msg_type === CLIENT_HELLO ? assembled[0] : undefined;
    // A hello with a cookie, or one after the handshake (a renegotiation), goes werift's way.
    if (!hello || server.connected || hello.fragment[cookieOffset(hello.fragment)] !== 0) return handle(assembled);
    const { dtls } = server;
    if (dtls.flight !== SERVER_HELLO_FLIGHT) {
      // werift's first step, silenced: its HelloVerifyRequest goes nowhere. It ends by choosing the
      // cookie; a hello it refused (no cipher suite in common, say) has none, and fails as before.
      const transport = server.transport;
      server.transport = { send: () => undefined };
      let read: Promise<void>;
      try {
        read = handle([hello]);
      } finally {
        server.transport = transport;
      }
      if (!dtls.cookie) return read;
    }
    const asIfWithCookie = withCookie(hello, dtls.cookie!);
    let answered!: Promise<void>;
    // werift numbers the flight's messages and keeps the hello in the transcript before its first await.
    transcriptHolding(dtls, asIfWithCookie, hello, () =>
      numberingFromZero(dtls, () => {
        answered = handle([asIfWithCookie]);
      }),
    );
    return answered;
  };
}
