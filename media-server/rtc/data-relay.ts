/**
 * Data packets relayed from one participant to the room: its sender stamped on them as LiveKit
 * does, without encoding the packet again, within its grant and its budget.
 */
import type { RTCDataChannel, RTCPeerConnection } from 'werift';
import { DataPacket, ParticipantInfo_Kind, UserPacket } from '@livekit/protocol';
import type { DevParticipant, DevRoom } from './room-state';
import { IntervalLog, SESSION_LIMITS, TokenBucket } from './limits';
import { coalesceSacks } from './sctp-acks';

/**
 * The sender's identity and sid as protobuf fields to append to a DataPacket it sent. In protobuf
 * the last value of a singular field wins, and a message field that comes again merges into the
 * first (the oneof's user packet included, when it is the packet's case), so the packet with these
 * appended reads as stamped by every decoder — what parsing and encoding it again gave, at a
 * fraction of the cost: encoding it again was two fifths of relaying a 14 KB packet.
 */
export function senderStamp(identity: string, sid: string) {
  const sender = { participantIdentity: identity, participantSid: sid };
  return {
    /** For any packet. */
    packet: Buffer.from(new DataPacket(sender).toBinary()),
    /** For a user packet: the user packet's own sender fields too. */
    userPacket: Buffer.from(
      new DataPacket({ ...sender, value: { case: 'user', value: new UserPacket(sender) } }).toBinary(),
    ),
  };
}

/** Where a packet goes and how it reads stamped (`bytes` must decode: parse it first). */
export function stampPacket(bytes: Uint8Array, packet: DataPacket, stamp: ReturnType<typeof senderStamp>) {
  const user = packet.value.case === 'user' ? packet.value.value : undefined;
  // LiveKit reads a user packet's own destinations when the packet names none.
  const destinations = packet.destinationIdentities.length
    ? packet.destinationIdentities
    : (user?.destinationIdentities ?? []);
  return { destinations, out: Buffer.concat([bytes, user ? stamp.userPacket : stamp.packet]) };
}

/** One participant's data channels: what it sends is relayed to the room, what the room sends it goes out on them. */
export class DataRelay {
  private readonly channels = new Map<string, RTCDataChannel>();
  private readonly pending: { packet: Uint8Array; reliable: boolean }[] = [];
  private readonly packets = new TokenBucket(SESSION_LIMITS.dataPacketsPerSecond, SESSION_LIMITS.dataPacketBurst);
  private readonly bytes = new TokenBucket(SESSION_LIMITS.dataBytesPerSecond, SESSION_LIMITS.dataByteBurst);
  /** This participant's identity and sid, appended to each packet it sends. */
  private readonly stamp: ReturnType<typeof senderStamp>;
  /** Data packets dropped over budget, by reason: a line a second at most. */
  private readonly drops: IntervalLog;
  /** Data packets dropped over budget, in all. */
  dropped = 0;
  /** Data packets not sent to this participant because it did not keep up, in all. */
  missed = 0;
  private readonly misses: IntervalLog;
  /** Data packets refused: no canPublishData grant, or a transcription from a participant not an agent. */
  refused = 0;

  constructor(
    private readonly participant: DevParticipant,
    /** The peer connection the client's data channels arrive on. */
    private readonly pc: RTCPeerConnection,
    private readonly scope: {
      /** The room the participant is in now (a move changes it). */
      room(): DevRoom;
      /** Whether its session has ended: nothing it sends is relayed then. */
      ended(): boolean;
      log: (msg: string) => void;
    },
  ) {
    this.stamp = senderStamp(participant.identity, participant.sid);
    this.drops = new IntervalLog(scope.log, () => `${participant.identity}@${scope.room().name}: dropped data packets`);
    this.misses = new IntervalLog(scope.log, () => `${participant.identity}@${scope.room().name}: missed data packets`);
    pc.onDataChannel.subscribe((dc) => this.onDataChannel(dc));
  }

  private onDataChannel(dc: RTCDataChannel) {
    this.channels.set(dc.label, dc);
    coalesceSacks(this.pc);
    dc.stateChange.subscribe((state) => {
      if (state === 'open') this.flush();
    });
    dc.onMessage.subscribe((data) => {
      if (typeof data === 'string') return;
      this.relay(data, dc.label !== '_lossy');
    });
    if (dc.readyState === 'open') this.flush();
  }

  /** A data packet from this participant: stamped with its identity and sent to the room or its destinations. */
  private relay(bytes: Buffer, reliable: boolean) {
    // The grant first, then the budget, both before parsing: a flood costs little, its excess is
    // dropped and the sender stays connected.
    if (!this.participant.permission.canPublishData) {
      this.refused++;
      return;
    }
    if (this.scope.ended()) return;
    if (!this.packets.take(1)) return this.drop(`over ${SESSION_LIMITS.dataPacketsPerSecond} packets/s`);
    if (!this.bytes.take(bytes.length)) return this.drop(`over ${SESSION_LIMITS.dataBytesPerSecond} bytes/s`);
    let packet: DataPacket;
    try {
      packet = DataPacket.fromBinary(bytes);
    } catch {
      return;
    }
    // As LiveKit: transcriptions from agents only, or anyone could caption another's words.
    if (packet.value.case === 'transcription' && this.participant.kind !== ParticipantInfo_Kind.AGENT) {
      this.refused++;
      return;
    }
    const { destinations, out } = stampPacket(bytes, packet, this.stamp);
    for (const other of this.scope.room().connected(this.participant)) {
      if (destinations.length && !destinations.includes(other.identity)) continue;
      other.link!.sendData(out, reliable);
    }
  }

  private drop(reason: string) {
    this.dropped++;
    this.drops.count(reason);
  }

  /**
   * Sends a packet to this participant (queued until its channel opens, 500 at most). A reader
   * that does not keep up (over SESSION_LIMITS.dataReceiverQueueBytes waiting) misses it.
   */
  send(packet: Uint8Array, reliable: boolean) {
    const dc = this.channels.get(reliable ? '_reliable' : '_lossy') ?? this.channels.get('_reliable');
    if (dc?.readyState === 'open') {
      if (this.waitingBytes() > SESSION_LIMITS.dataReceiverQueueBytes) {
        this.missed++;
        return this.misses.count(`over ${SESSION_LIMITS.dataReceiverQueueBytes} bytes waiting`);
      }
      // One buffer for every receiver: werift only reads it.
      dc.send(Buffer.isBuffer(packet) ? packet : Buffer.from(packet));
    } else if (this.pending.length < 500) this.pending.push({ packet, reliable });
  }

  /**
   * Data waiting to go out to this participant: what its SCTP association has not yet sent (held
   * by its congestion and receive windows). Not the channel's bufferedAmount: werift lowers that
   * only once the association's whole queue empties, so under steady traffic it keeps growing for
   * a reader that keeps up.
   */
  waitingBytes() {
    const association = (
      this.pc.sctpTransport as unknown as { sctp?: { outboundQueue?: unknown[]; maxPayloadSize?: number } } | null
    )?.sctp;
    // Chunks are full-size but for each message's last: an upper bound, at O(1) a packet.
    return (association?.outboundQueue?.length ?? 0) * (association?.maxPayloadSize ?? 1200);
  }

  private flush() {
    const queued = this.pending.splice(0);
    for (const { packet, reliable } of queued) this.send(packet, reliable);
  }
}
