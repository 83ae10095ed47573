import { deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Room, type TextStreamReader } from 'livekit-client';
import {
  DataPacket,
  DataPacket_Kind,
  DataStream_Chunk,
  DataStream_CompressionType,
  DataStream_Header,
  DataStream_TextHeader,
  DataStream_Trailer,
  Encryption_Type,
} from '@livekit/protocol';
import { gateDataStreams, openDataStreams } from '@/components/call/data-stream-gate';

/**
 * The gate in front of livekit-client's own data-stream reader (a real Room, not connected): the
 * packets go in where the room hands them over from its data channel.
 */
type Packet = DataPacket['value'];
const packet = (participantIdentity: string, value: Packet) =>
  new DataPacket({ kind: DataPacket_Kind.RELIABLE, participantIdentity, value });

const header = (sender: string, streamId: string, topic: string, extra: Partial<DataStream_Header> = {}) =>
  packet(sender, {
    case: 'streamHeader',
    value: new DataStream_Header({
      streamId,
      topic,
      timestamp: 0n,
      mimeType: 'text/plain',
      contentHeader: { case: 'textHeader', value: new DataStream_TextHeader({}) },
      ...extra,
    }),
  });
const chunk = (sender: string, streamId: string, index: number, text: string) =>
  packet(sender, {
    case: 'streamChunk',
    value: new DataStream_Chunk({ streamId, chunkIndex: BigInt(index), content: new TextEncoder().encode(text) }),
  });
const trailer = (sender: string, streamId: string) =>
  packet(sender, { case: 'streamTrailer', value: new DataStream_Trailer({ streamId, reason: '' }) });

/** A room as the call makes it, its stream packets delivered as its data channel would. */
function callRoom({ gated }: { gated: boolean }) {
  const room = new Room({ dataStream: { maxPayloadByteLength: 16 * 1024 } });
  if (gated) gateDataStreams(room);
  const manager = (room as unknown as { incomingDataStreamManager: { setConnected(c: boolean): void } })
    .incomingDataStreamManager;
  manager.setConnected(true);
  const deliver = (p: DataPacket) =>
    (room as unknown as { handleDataStream(p: DataPacket, e: Encryption_Type): void }).handleDataStream(
      p,
      Encryption_Type.NONE,
    );
  return { room, deliver };
}

/** Counts the inflaters made (the inline content of a compressed header is inflated at once). */
function countInflaters() {
  const Real = globalThis.DecompressionStream;
  const made = { count: 0 };
  vi.stubGlobal(
    'DecompressionStream',
    class extends Real {
      constructor(format: CompressionFormat) {
        super(format);
        made.count++;
      }
    },
  );
  return made;
}

afterEach(() => vi.unstubAllGlobals());

describe('the data-stream gate', () => {
  it('reads a topic only from the senders it is opened to, and only their chunks of their stream', async () => {
    const { room, deliver } = callRoom({ gated: true });
    const readers: { sender: string; text: Promise<string> }[] = [];
    room.registerTextStreamHandler('lk.transcription', (reader: TextStreamReader, { identity }) =>
      readers.push({ sender: identity, text: reader.readAll() }),
    );
    deliver(header('agent', 's0', 'lk.transcription'));
    expect(readers).toHaveLength(0); // not opened yet

    const close = openDataStreams(room, 'lk.transcription', (sender) => sender === 'agent');
    deliver(header('mallory', 's1', 'lk.transcription'));
    deliver(header('agent', 's2', 'lk.transcription'));
    deliver(header('mallory', 's2', 'lk.transcription')); // the agent's stream id, taken again
    deliver(chunk('agent', 's2', 0, 'hello '));
    deliver(chunk('mallory', 's2', 1, 'FORGED ')); // into the agent's stream
    deliver(chunk('agent', 's2', 1, 'world'));
    deliver(trailer('mallory', 's2')); // ends it early, if believed
    deliver(trailer('agent', 's2'));
    expect(readers.map((r) => r.sender)).toEqual(['agent']);
    expect(await readers[0].text).toBe('hello world');

    close();
    deliver(header('agent', 's3', 'lk.transcription'));
    expect(readers).toHaveLength(1);
  });

  it("inflates no one's compressed header on a topic it was not opened for (livekit-client's RPC topic)", () => {
    const inflaters = countInflaters();
    const bomb = deflateRawSync(Buffer.alloc(1024 * 1024, 'B'), { level: 9 });
    const rpcBomb = header('mallory', 'b1', 'lk.rpc_request', {
      compression: DataStream_CompressionType.DEFLATE_RAW,
      inlineContent: bomb,
      attributes: { 'lk.rpc_request_id': 'r1' },
    });
    // Ungated, livekit-client inflates it for its own RPC handler before anyone can refuse it (and
    // its RPC server answers; nothing is connected here to carry that).
    const ungated = callRoom({ gated: false });
    (ungated.room.engine as unknown as { sendDataPacket(): Promise<void> }).sendDataPacket = async () => undefined;
    ungated.deliver(rpcBomb);
    expect(inflaters.count).toBeGreaterThanOrEqual(1);
    const before = inflaters.count;
    callRoom({ gated: true }).deliver(rpcBomb);
    expect(inflaters.count).toBe(before);
  });

  it('forgets the oldest unfinished stream beyond 64, so a sender cannot grow it without end', async () => {
    const { room, deliver } = callRoom({ gated: true });
    const texts: Promise<string>[] = [];
    room.registerTextStreamHandler('lk.transcription', (reader: TextStreamReader) => texts.push(reader.readAll()));
    openDataStreams(room, 'lk.transcription', () => true);
    for (let i = 0; i < 65; i++) deliver(header('agent', `s${i}`, 'lk.transcription'));
    expect(texts).toHaveLength(65);
    // s0 was forgotten: its chunk and trailer are dropped, and its reader waits (the sender's loss).
    deliver(chunk('agent', 's0', 0, 'late'));
    deliver(trailer('agent', 's0'));
    deliver(chunk('agent', 's64', 0, 'kept'));
    deliver(trailer('agent', 's64'));
    expect(await texts[64]).toBe('kept');
    expect(await Promise.race([texts[0], new Promise((r) => setTimeout(() => r('still waiting'), 100))])).toBe(
      'still waiting',
    );
  });
});
