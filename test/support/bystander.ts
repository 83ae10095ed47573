/**
 * A bystander of the development media server while someone attacks it: a room of its own where an
 * rtc-node publisher sends a microphone and a camera, an rtc-node subscriber hears it, and a raw
 * signaling client on a thread of its own pings every 50 ms. `check()` says what a victim would
 * notice since the last reset: the worst ping round trip (a ping still unanswered counts its age),
 * whether media still arrives, whether everyone is still connected, and how much the server's
 * memory and log grew.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { AudioStream, Room, TrackKind, type RemoteTrack } from '@livekit/rtc-node';
import type { MediaServerProcess } from './media-server-process';
import { mediaToken, micAndCameraPublisher } from './rtc-node-media';
import { cleanUpWithin, until } from './until';

/**
 * The pinger's thread (CommonJS, evaluated): a raw v0 signaling client sending a ping request
 * every `everyMs`, posting its counts with each pong and when asked ('report'; 'reset' forgets the
 * worst round trip so far).
 */
const PINGER = `
const { parentPort, workerData } = require('node:worker_threads');
const { WebSocket } = require('ws');
const { Ping, SignalRequest, SignalResponse } = require('@livekit/protocol');
const ws = new WebSocket(workerData.url);
const sent = new Map();
let seq = 0n, pongs = 0, worstPing = 0, joined = false;
const report = () => {
  const now = performance.now();
  let oldestUnanswered = 0;
  for (const at of sent.values()) oldestUnanswered = Math.max(oldestUnanswered, now - at);
  parentPort.postMessage({ pongs, worstPing, oldestUnanswered, open: joined && ws.readyState === WebSocket.OPEN });
};
ws.on('error', () => undefined);
ws.on('close', report);
ws.on('message', (data) => {
  const { message } = SignalResponse.fromBinary(new Uint8Array(data));
  if (message.case === 'join') joined = true;
  if (message.case !== 'pongResp') return;
  const at = sent.get(message.value.lastPingTimestamp);
  if (at === undefined) return;
  sent.delete(message.value.lastPingTimestamp);
  worstPing = Math.max(worstPing, performance.now() - at);
  pongs++;
  report();
});
setInterval(() => {
  if (ws.readyState !== WebSocket.OPEN) return;
  const id = ++seq;
  sent.set(id, performance.now());
  ws.send(new SignalRequest({ message: { case: 'pingReq', value: new Ping({ timestamp: id }) } }).toBinary());
}, workerData.everyMs);
parentPort.on('message', (what) => {
  if (what === 'reset') worstPing = 0;
  report();
});
`;

/** The guarantee every hostile test holds a bystander to. */
export const BYSTANDER_PING_MS = 250;

/** Resident memory of a process, in MiB (Linux). */
export function rssMiB(pid: number) {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** CPU time a process has used so far (user and system), in ms (Linux, 100 ticks a second). */
export function cpuMs(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function startBystander(media: MediaServerProcess, room = 'bystanders') {
  const token = (identity: string) => mediaToken(media, room, identity);
  const publisher = await micAndCameraPublisher({ url: media.url, token: await token('pia') });

  const listener = new Room();
  let audioFrames = 0;
  listener.on('trackSubscribed', (track: RemoteTrack) => {
    if (track.kind !== TrackKind.KIND_AUDIO) return;
    void (async () => {
      const reader = new AudioStream(track, 48000, 1).getReader();
      while (!(await reader.read()).done) audioFrames++;
    })();
  });
  await listener.connect(media.url, await token('lena'), { autoSubscribe: true, dynacast: false });
  await until(() => (audioFrames > 50 ? true : undefined), "the bystander's first audio", 20_000);

  // On a thread of its own: the test's own work (building a hostile request) must not delay the
  // pongs it times.
  const pinger = new Worker(PINGER, {
    eval: true,
    workerData: { url: `${media.url}/rtc?access_token=${await token('pete')}`, everyMs: 50 },
  });
  const pinged = { pongs: 0, worstPing: 0, oldestUnanswered: 0, open: false };
  pinger.on('message', (report: typeof pinged) => Object.assign(pinged, report));
  pinger.on('error', (err) => {
    pinged.open = false;
    console.warn('bystander pinger:', err);
  });
  await until(() => (pinged.pongs > 0 ? true : undefined), "the bystander's first pong");
  /** The pinger's figures as of now. */
  const ask = (what: 'report' | 'reset') =>
    new Promise<typeof pinged>((resolve) => {
      pinger.once('message', resolve);
      pinger.postMessage(what);
    });

  const figures = () => ({
    cpu: cpuMs(media.child.pid!),
    frames: audioFrames,
    pongs: pinged.pongs,
    rss: rssMiB(media.child.pid!),
    log: media.output.length,
  });
  let since = figures();

  return {
    /** Starts a new measuring window (the figures of `check` are since then). */
    async reset() {
      await ask('reset');
      since = figures();
    },
    /**
     * What the bystander saw since the last reset, after `settleMs` more of pinging (so a freeze
     * that began at the end of the attack shows): unanswered pings count their age.
     */
    async check(settleMs = 500) {
      await new Promise((r) => setTimeout(r, settleMs));
      const now = await ask('report');
      return {
        worstPingMs: Math.round(Math.max(now.worstPing, now.oldestUnanswered)),
        pongs: now.pongs - since.pongs,
        audioFrames: audioFrames - since.frames,
        connected: now.open && listener.isConnected && publisher.room.isConnected === true,
        rssGrowthMiB: Math.round(rssMiB(media.child.pid!) - since.rss),
        logGrowthBytes: media.output.length - since.log,
        /** The media server's CPU time meanwhile: a slow pong with little of it is the machine's load. */
        serverCpuMs: cpuMs(media.child.pid!) - since.cpu,
        loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
      };
    },
    async stop() {
      await pinger.terminate();
      await cleanUpWithin('the bystander listener leaving', () => listener.disconnect());
      await cleanUpWithin('the bystander publisher leaving', () => publisher.leave());
    },
  };
}
export type Bystander = Awaited<ReturnType<typeof startBystander>>;
