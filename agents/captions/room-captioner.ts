/**
 * Captions for one room: joins as a hidden agent participant (LiveKit's rtc-node), cuts each
 * speaker's microphone into speech segments, transcribes each, and publishes the text as a
 * LiveKit transcription of that speaker's track — what the call UI's captions overlay shows — and
 * sends it to Convene to be kept as the meeting's live transcript (notes.ts).
 */
import { AccessToken } from 'livekit-server-sdk';
import {
  type AudioFrame,
  AudioStream,
  EncryptionType,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  TrackKind,
} from '@livekit/rtc-node';
import type { SpeechToText } from '../../lib/stt';
import { createSpeechSegmenter, type SpeechSegment, toWav } from './speech';
import { LiveNotes } from './notes';

const SAMPLE_RATE = 48_000;

export interface CaptionerSettings {
  url: string;
  apiKey: string;
  apiSecret: string;
  stt: SpeechToText;
  identity: string;
  /** Where each final segment goes to be kept as the meeting's live transcript (from the dispatch). */
  segmentsUrl?: string;
  log: (msg: string) => void;
}

export class RoomCaptioner {
  private readonly room = new Room();
  private readonly readers = new Set<ReadableStreamDefaultReader<AudioFrame>>();
  private closed = false;
  private token?: Promise<string>;
  private notes?: LiveNotes;

  constructor(
    readonly roomName: string,
    private readonly language: string,
    private readonly settings: CaptionerSettings,
    /** Called once when the room is gone (ended, or this participant removed). */
    private readonly onGone: () => void,
  ) {}

  /** Its participant identity in the room. */
  get identity() {
    return this.settings.identity;
  }

  async start() {
    const { apiKey, apiSecret, identity, url } = this.settings;
    const token = new AccessToken(apiKey, apiSecret, { identity, name: 'Captions', ttl: 24 * 3600 });
    // Hidden: listed to no one; agent: LiveKit marks the participant's kind so clients know it is one.
    token.addGrant({
      roomJoin: true,
      room: this.roomName,
      hidden: true,
      agent: true,
      canPublish: false,
      canSubscribe: true,
      canPublishData: true,
    });
    this.room.on(RoomEvent.TrackSubscribed, (track, publication, participant) =>
      this.onTrack(track, publication, participant),
    );
    this.room.on(RoomEvent.Disconnected, () => {
      if (!this.closed) this.onGone();
      this.closed = true;
    });
    this.token = token.toJwt();
    // The same token authenticates the segments it sends: only the room's captions agent holds one.
    if (this.settings.segmentsUrl)
      this.notes = new LiveNotes(this.settings.segmentsUrl, () => this.token!, this.settings.log);
    await this.room.connect(url, await this.token, { autoSubscribe: true, dynacast: false });
    this.settings.log(`captions joined ${this.roomName}`);
  }

  private onTrack(track: RemoteTrack, publication: RemoteTrackPublication, speaker: RemoteParticipant) {
    if (track.kind !== TrackKind.KIND_AUDIO) return;
    // An encrypted track is ciphertext to us: never transcribed (Convene refuses captions in E2EE rooms anyway).
    if (publication.encryptionType !== EncryptionType.NONE) return;
    const reader = new AudioStream(track, { sampleRate: SAMPLE_RATE, numChannels: 1 }).getReader();
    this.readers.add(reader);
    const segmenter = createSpeechSegmenter({ sampleRate: SAMPLE_RATE });
    const trackSid = publication.sid ?? '';
    // Segment times count from the start of the speaker's stream: wall-clock times from here.
    const streamStartedAt = Date.now();
    let queue = Promise.resolve();
    let count = 0;
    // One transcription at a time per speaker, so their captions arrive in order.
    const transcribe = (segment: SpeechSegment) => {
      const id = `${trackSid}-${++count}`;
      queue = queue.then(() => this.caption(speaker.identity, trackSid, id, segment, streamStartedAt));
    };
    void (async () => {
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read())
          for (const segment of segmenter.push(read.value.data)) transcribe(segment);
      } catch (err) {
        this.settings.log(`captions: audio of ${speaker.identity} ended: ${(err as Error).message}`);
      }
      const last = segmenter.flush();
      if (last && !this.closed) transcribe(last);
      this.readers.delete(reader);
    })();
  }

  private async caption(
    participantIdentity: string,
    trackSid: string,
    id: string,
    segment: SpeechSegment,
    streamStartedAt: number,
  ) {
    if (this.closed) return;
    try {
      const { text } = await this.settings.stt.transcribe(toWav(segment), {
        filename: 'speech.wav',
        contentType: 'audio/wav',
        language: this.language,
        signal: AbortSignal.timeout(60_000),
      });
      if (!text || this.closed) return;
      await this.room.localParticipant?.publishTranscription({
        participantIdentity,
        trackSid,
        segments: [
          {
            id,
            text,
            startTime: BigInt(segment.startMs),
            endTime: BigInt(segment.endMs),
            language: this.language,
            final: true,
          },
        ],
      });
      this.notes?.add({
        id,
        participantIdentity,
        text,
        startedAt: new Date(streamStartedAt + segment.startMs),
        endedAt: new Date(streamStartedAt + segment.endMs),
      });
    } catch (err) {
      // One lost caption line; the next segment tries again.
      this.settings.log(`captions: a segment of ${participantIdentity} failed: ${(err as Error).message}`);
    }
  }

  async stop() {
    if (this.closed) return;
    this.closed = true;
    for (const reader of this.readers) void reader.cancel().catch(() => undefined);
    // What was said last is kept too (a bounded wait: leaving must not hang on Convene).
    if (this.notes) await Promise.race([this.notes.flush(), new Promise((r) => setTimeout(r, 3000))]);
    await this.room.disconnect();
    this.settings.log(`captions left ${this.roomName}`);
  }
}
