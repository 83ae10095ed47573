import type { Room } from 'livekit-client';
import type { DataPacket, Encryption_Type } from '@livekit/protocol';

/**
 * Which of other participants' data streams livekit-client may read. Left to itself it reads a
 * stream on every topic that has a handler — its own RPC topics always — and it inflates a
 * compressed header's inline content in one task before any handler can refuse the sender
 * (~100 ms of the page's one thread for 14 KB on the wire); and it appends a chunk to whichever
 * stream the chunk's id names, whoever sent it. Behind the gate it sees a stream's header only
 * when the call opened that topic to that sender, and only that sender's chunks and trailer.
 * Everything else from the data channel is dropped before it is decoded further.
 */
type Believe = (sender: string) => boolean;

/** livekit-client's data-stream manager: the one method the room hands stream packets to. */
interface StreamPackets {
  handleDataStreamPacket(packet: DataPacket, encryptionType: Encryption_Type): void;
}

/** Streams a page follows at once, at most; the oldest is forgotten first (its sender stops). */
const OPEN_STREAMS_MAX = 64;

interface Gate {
  topics: Map<string, Believe>;
  /** Stream id → its sender, for the streams let through and not yet finished. */
  open: Map<string, string>;
}

const gates = new WeakMap<Room, Gate>();

function gateOf(room: Room): Gate {
  const existing = gates.get(room);
  if (existing) return existing;
  const gate: Gate = { topics: new Map(), open: new Map() };
  gates.set(room, gate);
  const manager = (room as unknown as { incomingDataStreamManager: StreamPackets }).incomingDataStreamManager;
  const handle = manager.handleDataStreamPacket.bind(manager);
  manager.handleDataStreamPacket = (packet, encryptionType) => {
    if (admit(gate, packet)) handle(packet, encryptionType);
  };
  return gate;
}

/** Whether a stream packet reaches livekit-client (see the module's comment). */
function admit({ topics, open }: Gate, packet: DataPacket): boolean {
  // Stamped by the media layer on everything it relays; empty on what the server sends itself.
  const sender = packet.participantIdentity ?? '';
  switch (packet.value.case) {
    case 'streamHeader': {
      const { streamId, topic } = packet.value.value;
      if (open.has(streamId) || !topics.get(topic)?.(sender)) return false;
      if (open.size >= OPEN_STREAMS_MAX) open.delete(open.keys().next().value!);
      open.set(streamId, sender);
      return true;
    }
    case 'streamChunk':
      return open.get(packet.value.value.streamId) === sender;
    case 'streamTrailer': {
      const { streamId } = packet.value.value;
      if (open.get(streamId) !== sender) return false;
      open.delete(streamId);
      return true;
    }
    default:
      return false;
  }
}

/** Puts the gate in front of a new room: until a topic is opened, no stream from anyone is read. */
export function gateDataStreams(room: Room): void {
  gateOf(room);
}

/** Lets streams on `topic` through from the senders `believe` accepts, until the returned close. */
export function openDataStreams(room: Room, topic: string, believe: Believe): () => void {
  const { topics } = gateOf(room);
  topics.set(topic, believe);
  return () => {
    if (topics.get(topic) === believe) topics.delete(topic);
  };
}
