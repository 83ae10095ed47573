/**
 * The captions worker: watches the media layer for dispatches of the captions agent (what
 * `POST /api/v1/captions/start` creates) and keeps one RoomCaptioner per dispatch — joining when
 * one appears, leaving when it is deleted (captions stopped) or its room ends.
 *
 * Decision: built on `@livekit/rtc-node` directly, not on `@livekit/agents`, and it finds its work
 * by polling the server API (ListRooms, then ListDispatch per room) instead of registering over
 * LiveKit's agent worker protocol. The development media server does not speak that protocol,
 * polling works unchanged against LiveKit, and the framework's VAD plugin cannot install here
 * (see speech.ts). The price: captions start up to one poll interval late, and each poll costs
 * one request per open room — fine for development and modest deployments.
 */
import { AgentDispatchClient, RoomServiceClient } from 'livekit-server-sdk';
import type { SpeechToText } from '../../lib/stt';
import { captionsAgentIdentity } from '../../lib/domain/captions-agent';
import { RoomCaptioner } from './room-captioner';

export interface CaptionsWorkerOptions {
  /** The media layer (ws:// or wss://) and its API key pair. */
  url: string;
  apiKey: string;
  apiSecret: string;
  stt: SpeechToText;
  /** The agent name Convene dispatches (LIVEKIT_CAPTIONS_AGENT). */
  agentName: string;
  pollMs?: number;
  log?: (msg: string) => void;
}

export function startCaptionsWorker(opts: CaptionsWorkerOptions) {
  const log = opts.log ?? (() => undefined);
  const host = opts.url.replace(/^ws/, 'http');
  const roomService = new RoomServiceClient(host, opts.apiKey, opts.apiSecret);
  const dispatchService = new AgentDispatchClient(host, opts.apiKey, opts.apiSecret);
  const captioners = new Map<string, RoomCaptioner>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  /**
   * Leaves a room: the SDK's disconnect, and when that has not finished within 3 s (rtc-node's can
   * hang on a busy machine, and the agent would stay in the room), the server API removes it.
   */
  async function leave(captioner: RoomCaptioner) {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), 3000);
    });
    const left = captioner.stop().then(
      () => false,
      () => false,
    );
    const slow = await Promise.race([left, hung]);
    clearTimeout(timer);
    if (!slow) return;
    log(`captions: leaving ${captioner.roomName} did not finish in 3 s; removed through the server API`);
    await roomService.removeParticipant(captioner.roomName, captioner.identity).catch(() => undefined);
  }

  async function poll() {
    const wanted = new Map<string, { room: string; language: string; segmentsUrl?: string }>();
    for (const room of await roomService.listRooms()) {
      for (const d of await dispatchService.listDispatch(room.name)) {
        if (d.agentName !== opts.agentName) continue;
        let metadata: { language?: unknown; segmentsUrl?: unknown } = {};
        try {
          metadata = JSON.parse(d.metadata || '{}') as typeof metadata;
        } catch {
          // Metadata is Convene's JSON; anything else keeps the default language and keeps no transcript.
        }
        wanted.set(d.id, {
          room: room.name,
          language: typeof metadata.language === 'string' ? metadata.language : 'en',
          segmentsUrl: typeof metadata.segmentsUrl === 'string' ? metadata.segmentsUrl : undefined,
        });
      }
    }
    for (const [id, captioner] of captioners) {
      if (wanted.has(id)) continue;
      captioners.delete(id);
      await leave(captioner);
    }
    for (const [id, { room, language, segmentsUrl }] of wanted) {
      if (captioners.has(id) || stopped) continue;
      const captioner = new RoomCaptioner(
        room,
        language,
        { ...opts, identity: captionsAgentIdentity(id), segmentsUrl, log },
        // The room ended under us: forget it, so a dispatch still listed there joins again.
        () => captioners.get(id) === captioner && captioners.delete(id),
      );
      captioners.set(id, captioner);
      try {
        await captioner.start();
      } catch (err) {
        captioners.delete(id);
        log(`captions could not join ${room}: ${(err as Error).message}`);
      }
    }
  }

  const loop = async () => {
    try {
      await poll();
    } catch (err) {
      log(`captions worker: ${(err as Error).message}`);
    }
    if (!stopped) timer = setTimeout(loop, opts.pollMs ?? 2000);
  };
  void loop();

  return {
    /** Rooms being captioned now, by dispatch id. */
    rooms: () => new Map([...captioners].map(([id, c]) => [id, c.roomName])),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([...captioners.values()].map(leave));
      captioners.clear();
    },
  };
}
export type CaptionsWorker = ReturnType<typeof startCaptionsWorker>;
