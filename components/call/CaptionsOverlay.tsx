'use client';

import { useEffect, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import {
  RoomEvent,
  type Participant,
  type Room,
  type TextStreamHandler,
  type TranscriptionSegment,
} from 'livekit-client';
import { useT } from '@/components/call/useT';
import {
  addCaptions,
  currentCaptions,
  emptyCaptions,
  expireCaptions,
  type CaptionBuffer,
  type CaptionSegment,
} from '@/components/call/engagement-state';

/** The text-stream topic the media layer's agents publish transcriptions on. */
const TRANSCRIPTION_TOPIC = 'lk.transcription';

function nameOf(p: Participant | undefined, unknown: string): string {
  return p?.name || p?.identity || unknown;
}

/** A transcription stream names the transcribed track; the speaker is whoever publishes it, else the sender. */
function speakerOf(room: Room, trackId: string | undefined, senderIdentity: string, unknown: string): string {
  const everyone: Participant[] = [room.localParticipant, ...room.remoteParticipants.values()];
  const publisher = trackId ? everyone.find((p) => p.trackPublications.has(trackId)) : undefined;
  return nameOf(publisher ?? everyone.find((p) => p.identity === senderIdentity), unknown);
}

/**
 * Live captions while the room's captions agent runs: the latest lines at the bottom of the
 * video with the speaker's name. Reads the `lk.transcription` text streams and the older
 * TranscriptionReceived events (the latter only until a stream was seen). Interim text is
 * shown but hidden from screen readers, which hear each line once, when it is final.
 */
export function CaptionsOverlay() {
  const t = useT();
  const room = useRoomContext();
  const [buf, setBuf] = useState<CaptionBuffer>(emptyCaptions);
  const push = (segments: CaptionSegment[]) => setBuf((b) => addCaptions(b, segments, Date.now()));

  useEffect(() => {
    const onEvent = (segments: TranscriptionSegment[], participant?: Participant) =>
      push(
        segments.map((s) => ({
          id: s.id,
          text: s.text,
          final: s.final,
          speaker: nameOf(participant, t.captions.speakerUnknown),
          source: 'event' as const,
        })),
      );
    const onStream: TextStreamHandler = (reader, { identity }) => {
      const attrs = reader.info.attributes ?? {};
      const id = attrs['lk.segment_id'] || reader.info.id;
      const final = attrs['lk.transcription_final'] === 'true';
      const speaker = speakerOf(room, attrs['lk.transcribed_track_id'], identity, t.captions.speakerUnknown);
      void (async () => {
        let text = '';
        try {
          for await (const delta of reader) {
            text += delta;
            push([{ id, text, final: false, speaker, source: 'stream' }]);
          }
        } catch {
          // A stream cut short keeps what arrived.
        }
        push([{ id, text, final, speaker, source: 'stream' }]);
      })();
    };
    room.on(RoomEvent.TranscriptionReceived, onEvent);
    let registered = false;
    try {
      room.registerTextStreamHandler(TRANSCRIPTION_TOPIC, onStream);
      registered = true;
    } catch {
      // Another handler owns the topic: the transcription events still arrive.
    }
    return () => {
      room.off(RoomEvent.TranscriptionReceived, onEvent);
      if (registered) room.unregisterTextStreamHandler(TRANSCRIPTION_TOPIC);
    };
  }, [room, t]);

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
