/**
 * How the media server's ICE and DTLS meet a client, asserted on what the two exchange (never on
 * elapsed time). Each case is one a browser met, and each cost its join a retransmission:
 * - a host candidate must answer from the address it names (RFC 8445 §7.2.5.2.1): werift binds
 *   every candidate's socket to all addresses, so a 127.0.0.1 candidate beside another address
 *   answered from that other address, and the browser dropped the answer;
 * - a ClientHello that arrives before werift's DTLS server has started must be answered, not
 *   dropped (werift starts its server only once ICE concluded);
 * - ICE concludes at nomination, not after the agent has checked every pair still waiting (say,
 *   candidates the client trickled), one every 20 ms;
 * - the DTLS server answers a ClientHello with its ServerHello, not a HelloVerifyRequest that asks
 *   for the hello again: a round trip more, after ICE already checked the client's address;
 * - no STUN server is asked when none is configured (werift put Google's in its place, and each
 *   answer waited for the lookup and the request).
 */
import dgram from 'node:dgram';
import { promises as dns } from 'node:dns';
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type CandidatePair,
  type Connection,
  Message,
  RTCPeerConnection,
  type RTCDataChannel,
  classes,
  methods,
  parseMessage,
} from 'werift';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { answerAsDtlsServer } from '@/media-server/rtc/answer';
import { iceOptions } from '@/media-server/rtc/ice';
import { CODECS } from '@/media-server/sfu/codecs';
import { mediaToken } from '../support/rtc-node-media';
import { until } from '../support/until';
import { v1Client } from '../support/v1-client';

let media: DevMediaServer;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  media = await startDevMediaServer({});
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await media?.close();
});

interface HostCandidate {
  address: string;
  port: number;
}

/** The UDP host candidates in SDP `a=candidate:` lines or trickled `candidate:` strings. */
function hostCandidates(lines: string[]): HostCandidate[] {
  return lines.flatMap((line) => {
    const m = /candidate:\S+ \d+ udp \d+ (\S+) (\d+) typ host/i.exec(line);
    return m ? [{ address: m[1], port: Number(m[2]) }] : [];
  });
}

const sdpAttribute = (sdp: string, name: string) => new RegExp(`^a=${name}:(\\S+)`, 'm').exec(sdp)?.[1];

/** Sends an ICE connectivity check (as werift's `buildRequest` makes one) and waits for its answer. */
async function bindingCheck(
  from: string,
  to: HostCandidate,
  credentials: { username: string; password: string },
): Promise<{ response: Message; address: string; port: number }> {
  const socket = dgram.createSocket('udp4');
  try {
    await new Promise<void>((resolve) => socket.bind(0, from, resolve));
    const request = new Message(methods.BINDING, classes.REQUEST)
      .setAttribute('USERNAME', credentials.username)
      .setAttribute('PRIORITY', 1853824767)
      .setAttribute('ICE-CONTROLLING', 0x0123456789abcdefn);
    request.addMessageIntegrity(Buffer.from(credentials.password, 'utf8')).addFingerprint();
    const answered = new Promise<{ response: Message; address: string; port: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer from ${to.address}:${to.port}`)), 3_000);
      socket.on('message', (data, rinfo) => {
        const response = parseMessage(data);
        if (!response || !response.transactionId.equals(request.transactionId)) return;
        clearTimeout(timer);
        resolve({ response, address: rinfo.address, port: rinfo.port });
      });
    });
    socket.send(request.bytes, to.port, to.address);
    return await answered;
  } finally {
    socket.close();
  }
}

/** The machine's IPv4 addresses other than loopback: where a browser on it sends its checks from. */
const externalAddresses = () =>
  Object.values(os.networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);

it('every host candidate the server offers answers from the address it names', async () => {
  const pc = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false });
  cleanups.push(() => pc.close());
  pc.createDataChannel('_reliable');
  const client = await v1Client({ url: media.url, token: await mediaToken(media, 'ice-dtls', 'checker'), pc });
  cleanups.push(() => client.close());
  await until(() => (pc.connectionState === 'connected' ? true : undefined), 'the client connected', 10_000);

  const answer = client.messages.find((m) => m.case === 'answer')!.value as { sdp: string };
  const trickled = client.messages.flatMap((m) =>
    m.case === 'trickle' ? [(JSON.parse(m.value.candidateInit) as { candidate: string }).candidate] : [],
  );
  const candidates = hostCandidates([...answer.sdp.split(/\r?\n/), ...trickled]);
  const unique = [...new Map(candidates.map((c) => [`${c.address}:${c.port}`, c])).values()];
  expect(unique.length).toBeGreaterThan(0);
  const username = `${sdpAttribute(answer.sdp, 'ice-ufrag')}:${sdpAttribute(pc.localDescription!.sdp, 'ice-ufrag')}`;
  const password = sdpAttribute(answer.sdp, 'ice-pwd')!;

  // Checks from the machine's own addresses, as a browser on it sends them (one from 0.0.0.0 to
  // 127.0.0.1 leaves from 127.0.0.1, and the reply goes back from there whatever the socket).
  const answers = [];
  for (const from of ['0.0.0.0', ...externalAddresses()])
    for (const candidate of unique) {
      const { response, address, port } = await bindingCheck(from, candidate, { username, password });
      answers.push({ from, to: candidate, response: response.messageClass, address, port });
    }
  expect(answers).toEqual(
    answers.map(({ from, to }) => ({ from, to, response: classes.RESPONSE, address: to.address, port: to.port })),
  );
});

/** A first byte in 20..63 is DTLS (RFC 7983's demultiplexing). */
const isDtlsRecord = (data: Buffer) => data[0] > 19 && data[0] < 64;
/** A record carrying the start of a ClientHello (a handshake record, type 1, fragment offset 0). */
const isClientHello = (data: Buffer) => data[0] === 22 && data[13] === 1 && data.readUIntBE(19, 3) === 0;

/** The ICE agent under a peer connection's one (bundled) transport. */
const iceOf = (pc: RTCPeerConnection) => pc.dtlsTransports[0].iceTransport.connection;

/**
 * The media server's peer connection (its ICE options, answering as DTLS server) and a werift
 * client that offers a data channel, connected through their descriptions' candidates.
 * `beforeConnecting` runs once both have their transports, before either can start ICE.
 */
async function serverAndClient(beforeConnecting: (server: RTCPeerConnection, client: RTCPeerConnection) => void) {
  const server = new RTCPeerConnection({ codecs: CODECS, ...iceOptions() });
  const client = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false });
  cleanups.push(
    () => client.close(),
    () => server.close(),
  );
  const channel = client.createDataChannel('chat');
  const received = new Promise<string>((resolve) =>
    server.onDataChannel.subscribe((dc: RTCDataChannel) => dc.onMessage.subscribe((m) => resolve(String(m)))),
  );
  await client.setLocalDescription(await client.createOffer());
  // As a browser offers: more candidates may follow it (werift's own ends its candidates in the SDP).
  const offer = client.localDescription!.sdp.replace(/a=end-of-candidates\r?\n/g, '');
  await server.setRemoteDescription({ type: 'offer', sdp: offer });
  beforeConnecting(server, client);
  await answerAsDtlsServer(server);
  await client.setRemoteDescription(server.localDescription!);
  return { server, client, channel, received };
}

const connected = (pc: RTCPeerConnection, who: string) =>
  until(() => (pc.connectionState === 'connected' ? true : undefined), `${who} connected`, 10_000);

it("the server answers the client's first ClientHello, even one that came before its DTLS started", async () => {
  /** Whether each ClientHello the client sent went before any DTLS record from the server came back. */
  const clientHellos: { beforeReply: boolean }[] = [];
  let replied = false;
  const { server, client, channel, received } = await serverAndClient((server, client) => {
    const clientIce = iceOf(client);
    const send = clientIce.send;
    clientIce.send = (data: Buffer) => {
      if (isClientHello(data)) clientHellos.push({ beforeReply: !replied });
      return send(data);
    };
    clientIce.onData.subscribe((data) => {
      if (isDtlsRecord(data)) replied = true;
    });
    // The order the hand-over is for: the client's first record arrives before the server's DTLS starts.
    const serverIce = iceOf(server);
    const firstRecord = new Promise<void>((resolve) =>
      serverIce.onData.subscribe((data) => isDtlsRecord(data) && resolve()),
    );
    const dtls = server.dtlsTransports[0];
    const start = dtls.start.bind(dtls);
    dtls.start = async () => {
      await firstRecord;
      return start();
    };
  });

  await connected(server, 'the server');
  await connected(client, 'the client');
  expect(clientHellos.filter((h) => h.beforeReply)).toHaveLength(1);
  channel.send('hello');
  expect(await received).toBe('hello');
});

/** The handshake message type a plaintext DTLS handshake record carries (after its 13-byte header). */
const handshakeType = (data: Buffer) => (data[0] === 22 ? data[13] : undefined);
const HELLO_VERIFY_REQUEST = 3;
const SERVER_HELLO = 2;

it('the server answers a ClientHello with its ServerHello at once, and a hello sent again with the same flight', async () => {
  const clientHellos: Buffer[] = [];
  /** The handshake messages of each record the client received, by type, until it connected. */
  const replies: number[] = [];
  const { server, client, channel, received } = await serverAndClient((_server, client) => {
    const clientIce = iceOf(client);
    const send = clientIce.send;
    clientIce.send = (data: Buffer) => {
      if (!isClientHello(data)) return send(data);
      clientHellos.push(data);
      // The hello sent twice, as a browser resends it when no answer came within 50 ms.
      return send(data).then(() => send(data));
    };
    clientIce.onData.subscribe((data) => {
      const type = isDtlsRecord(data) ? handshakeType(data) : undefined;
      if (type !== undefined) replies.push(type);
    });
  });

  await until(() => (replies.length ? true : undefined), "the server's reply", 10_000);
  expect(replies[0]).toBe(SERVER_HELLO);
  await connected(server, 'the server');
  await connected(client, 'the client');
  expect(clientHellos).toHaveLength(1);
  expect(replies).not.toContain(HELLO_VERIFY_REQUEST);
  // Each of the two hellos got the whole flight.
  expect(replies.filter((t) => t === SERVER_HELLO)).toHaveLength(2);
  channel.send('hello');
  expect(await received).toBe('hello');
});

it('asks no STUN server when none is configured: no name is looked up for the answer', async () => {
  const lookedUp: string[] = [];
  const lookup = dns.lookup;
  dns.lookup = ((host: string, ...rest: unknown[]) => {
    lookedUp.push(host);
    return (lookup as (...args: unknown[]) => unknown)(host, ...rest);
  }) as typeof dns.lookup;
  try {
    const { server, client, channel, received } = await serverAndClient(() => undefined);
    await connected(server, 'the server');
    await connected(client, 'the client');
    channel.send('hello');
    expect(await received).toBe('hello');
  } finally {
    dns.lookup = lookup;
  }
  expect(lookedUp).toEqual([]);
});

/** Host candidates nothing answers on: TEST-NET-2 (RFC 5737), where a check is lost without an ICMP error. */
const silentCandidates = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    host: `198.51.100.${i + 1}`,
    init: {
      candidate: `candidate:silent${i} 1 udp 2122260223 198.51.100.${i + 1} ${40_000 + i} typ host`,
      sdpMid: '0',
    },
  }));

it('ICE concludes at nomination, not after checking every candidate the client trickled', async () => {
  const trickled = silentCandidates(10);
  const isTrickled = (pair: CandidatePair) => trickled.some((c) => c.host === pair.remoteCandidate.host);
  let checksSent = 0;
  let added: Promise<unknown> | undefined;
  let atConclusion: { candidatesPaired: number; checksSent: number } | undefined;
  const { server, client, channel, received } = await serverAndClient((server) => {
    const ice = iceOf(server) as Connection;
    const checkStart = ice.checkStart;
    ice.checkStart = (pair) => {
      if (isTrickled(pair)) checksSent++;
      return checkStart(pair);
    };
    // The client's candidates arrive just after the server nominated its pair, as a browser's
    // trickled ones often do: the server adds them (paired, waiting) before its agent goes on.
    // (werift gives up pairs still waiting at nomination; these come after it, and werift as it
    // ships checked each, one every 20 ms, before it concluded.)
    const agent = ice as unknown as { checkComplete: (pair: CandidatePair) => void };
    const checkComplete = agent.checkComplete.bind(ice);
    agent.checkComplete = (pair) => {
      const nominatedBefore = ice.nominated;
      checkComplete(pair);
      if (!nominatedBefore && ice.nominated) added ??= Promise.all(trickled.map((c) => server.addIceCandidate(c.init)));
    };
    ice.stateChanged.subscribe((state) => {
      if (state !== 'connected') return;
      const paired = new Set(ice.candidatePairs.filter(isTrickled).map((pair) => pair.remoteCandidate.host));
      atConclusion ??= { candidatesPaired: paired.size, checksSent };
    });
  });

  await connected(server, 'the server');
  await connected(client, 'the client');
  await added;
  expect(atConclusion).toEqual({ candidatesPaired: trickled.length, checksSent: 0 });
  channel.send('hello');
  expect(await received).toBe('hello');
});
