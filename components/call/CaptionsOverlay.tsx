'use client';

import { useCallback, useEffect, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { EngineEvent, RoomEvent, type Participant, type Room, type TextStreamHandler } from 'livekit-client';
import type { DataPacket, Transcription } from '@livekit/protocol';
import { useT } from '@/components/call/useT';
import { useParticipantApi } from '@/components/call/useParticipantApi';
import { useRoomLoad } from '@/components/call/useRoomLoad';
import { useLiveMessages } from '@/components/call/useLiveList';
import { believeCaptionFrom, readCaptionStream } from '@/components/call/captions-feed';
import { openDataStreams } from '@/components/call/data-stream-gate';
import {
  addCaptions,
  currentCaptions,
  emptyCaptions,
  expireCaptions,
  type CaptionBuffer,
  type CaptionSegment,
} from '@/components/call/engagement-state';
import { LIVE_TOPICS } from '@/lib/live-topics';
import type { LiveMessage } from '@/lib/live-messages';

/** The text-stream topic the media layer's agents publish transcriptions on. */
const TRANSCRIPTION_TOPIC = 'lk.transcription';

function nameOf(p: Participant | undefined, unknown: string): string {
  return p?.name || p?.identity || unknown;
}

function everyone(room: Room): Participant[] {
  return [room.localParticipant, ...room.remoteParticipants.values()];
}

/** A transcription stream names the transcribed track; the speaker is whoever publishes it. */
function speakerOfTrack(room: Room, trackId: string | undefined, unknown: string): string {
  return nameOf(trackId ? everyone(room).find((p) => p.trackPublications.has(trackId)) : undefined, unknown);
}

/**
 * The captions agent of the room while captions run (null otherwise): read from
 * GET /api/v1/me/captions on (re)connect and kept current by the server's `convene.captions` update.
 */
function useCaptionsAgent(token: string): string | null {
  const api = useParticipantApi(token);
  const [agent, setAgent] = useState<string | null>(null);
  const load = useCallback(async () => {
    const captions = await api('GET', '/me/captions');
    setAgent(captions.active ? captions.agentIdentity : null);
  }, [api]);
  const { reload } = useRoomLoad(load);
  const onMessage = useCallback(
    ({ body }: LiveMessage<typeof LIVE_TOPICS.captions>) => setAgent(body.active ? body.agentIdentity : null),
    [],
  );
  useLiveMessages(LIVE_TOPICS.captions, onMessage, reload);
  return agent;
}

/**
 * LiveKit's transcription packets with the sender the media layer stamped on them (the room's
 * TranscriptionReceived event leaves the sender out). Follows the room's engine, which a new
 * connection may replace.
 */
function onTranscriptionPackets(room: Room, handler: (transcription: Transcription, sender: string) => void) {
  const onPacket = (packet: DataPacket) => {
    if (packet.value.case === 'transcription') handler(packet.value.value, packet.participantIdentity);
  };
  let engine = room.engine;
  engine?.on(EngineEvent.DataPacketReceived, onPacket);
  const follow = () => {
    if (room.engine === engine) return;
    engine?.off(EngineEvent.DataPacketReceived, onPacket);
    engine = room.engine;
    engine?.on(EngineEvent.DataPacketReceived, onPacket);
  };
  room.on(RoomEvent.SignalConnected, follow);
  return () => {
    room.off(RoomEvent.SignalConnected, follow);
    engine?.off(EngineEvent.DataPacketReceived, onPacket);
  };
}

/**
 * Live captions while the room's captions agent runs: the latest lines at the bottom of the
 * video with the speaker's name. Reads the `lk.transcription` text streams and LiveKit's older
 * transcription packets (the latter only until a stream was seen) — only while the server says
 * captions run, and only from the agent it names (captions-feed.ts); lines and their length are
 * bounded (engagement-state.ts). Interim text is shown but hidden from screen readers, which hear
 * each line once, when it is final.
 */
export function CaptionsOverlay({ token }: { token: string }) {
  const t = useT();
  const room = useRoomContext();
  const agent = useCaptionsAgent(token);
  const [buf, setBuf] = useState<CaptionBuffer>(emptyCaptions);

  useEffect(() => {
    setBuf(emptyCaptions);
    if (agent === null) return;
    const push = (segments: CaptionSegment[]) => setBuf((b) => addCaptions(b, segments, Date.now()));
    const offPackets = onTranscriptionPackets(room, (transcription, sender) => {
      if (!believeCaptionFrom(sender, agent)) return;
      const speaker = nameOf(
        everyone(room).find((p) => p.identity === transcription.transcribedParticipantIdentity),
        t.captions.speakerUnknown,
      );
      push(transcription.segments.map((s) => ({ id: s.id, text: s.text, final: s.final, speaker, source: 'event' })));
    });
    // Only the agent's streams reach livekit-client (data-stream-gate.ts): no one else's is read.
    const closeStreams = openDataStreams(room, TRANSCRIPTION_TOPIC, (sender) => believeCaptionFrom(sender, agent));
    const onStream: TextStreamHandler = (reader) => {
      const attrs = reader.info.attributes ?? {};
      const id = attrs['lk.segment_id'] || reader.info.id;
      const final = attrs['lk.transcription_final'] === 'true';
      const speaker = speakerOfTrack(room, attrs['lk.transcribed_track_id'], t.captions.speakerUnknown);
      void readCaptionStream(reader, (text) => push([{ id, text, final: false, speaker, source: 'stream' }])).then(
        (text) => push([{ id, text, final, speaker, source: 'stream' }]),
      );
    };
    let registered = false;
    try {
      room.registerTextStreamHandler(TRANSCRIPTION_TOPIC, onStream);
      registered = true;
    } catch {
      // Another handler owns the topic: the transcription packets still arrive.
    }
    return () => {
      offPackets();
      closeStreams();
      if (registered) room.unregisterTextStreamHandler(TRANSCRIPTION_TOPIC);
    };
  }, [room, agent, t]);

  const showing = buf.lines.length > 0;
  useEffect(() => {
    if (!showing) return;
    const timer = setInterval(() => setBuf((b) => expireCaptions(b, Date.now())), 1000);
    return () => clearInterval(timer);
  }, [showing]);

  const lines = currentCaptions(buf, Date.now());
  return (
    <div className="pointer-events-none absolute inset-x-2 bottom-20 z-20 flex justify-center">
      <div
        role="log"
        aria-label={t.captions.label}
        aria-live="polite"
        className="max-w-3xl space-y-1 text-center"
        data-testid="captions"
      >
        {lines.map((l) => (
          <p
            key={l.id}
            aria-hidden={l.final ? undefined : true}
            className={`rounded bg-black/75 px-3 py-1 text-base text-white sm:text-lg ${l.final ? '' : 'opacity-80'}`}
          >
            <span className="font-semibold">{l.speaker}: </span>
            {l.text}
          </p>
        ))}
      </div>
    </div>
  );
}
