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
  /** Packets for this participant not yet handed to its channels, and their bytes. */
  private readonly waiting: { packet: Buffer; reliable: boolean }[] = [];
  private waitingInRelay = 0;
  /** Packets handed to the channels since they last had nothing buffered. */
  private handed = 0;
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
      if (state === 'open') this.pump();
    });
    // At 0 buffered (the threshold's default), werift has sent all it was handed on this channel.
    dc.bufferedAmountLow.subscribe(() => {
      if ([...this.channels.values()].every((c) => c.bufferedAmount === 0)) {
        this.handed = 0;
        this.pump();
      }
    });
    dc.onMessage.subscribe((data) => {
      if (typeof data === 'string') return;
      this.relay(data, dc.label !== '_lossy');
    });
    if (dc.readyState === 'open') this.pump();
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
   * Sends a packet to this participant, in order, queued until its channel opens. A reader that
   * does not keep up (over SESSION_LIMITS.dataReceiverQueueBytes waiting) misses it.
   */
  send(packet: Uint8Array, reliable: boolean) {
    if (this.waitingBytes() > SESSION_LIMITS.dataReceiverQueueBytes) {
      this.missed++;
      return this.misses.count(`over ${SESSION_LIMITS.dataReceiverQueueBytes} bytes waiting`);
    }
    // One buffer for every receiver: werift only reads it.
    const bytes = Buffer.isBuffer(packet) ? packet : Buffer.from(packet);
    this.waiting.push({ packet: bytes, reliable });
    this.waitingInRelay += bytes.length;
    this.pump();
  }

  /**
   * Hands waiting packets to the channels, at most SESSION_LIMITS.dataSendsInFlight at a time:
   * werift keeps one pending send per packet handed to it, and each of them is woken on every
   * acknowledgement until its association's queue is empty, so a thousand small packets handed at
   * once cost the whole process a million wake-ups an acknowledgement (a participant's flood of
   * data once held a bystander's signaling for 400 ms).
   */
  private pump() {
    while (this.waiting.length && this.handed < SESSION_LIMITS.dataSendsInFlight) {
      const { packet, reliable } = this.waiting[0];
      const dc = this.channels.get(reliable ? '_reliable' : '_lossy') ?? this.channels.get('_reliable');
      if (dc?.readyState !== 'open') return;
      this.waiting.shift();
      this.waitingInRelay -= packet.length;
      const buffered = dc.bufferedAmount;
      try {
        dc.send(packet);
      } catch {
        // Over the message size the receiver's SDP allows: it misses this one, the others do not.
        this.missed++;
        this.misses.count('over its max-message-size');
        continue;
      }
      // Counted only if werift holds it: what it held is what resets the count (bufferedAmountLow).
      if (dc.bufferedAmount > buffered) this.handed++;
    }
  }

  /**
   * Data waiting to go out to this participant: what the relay holds for it, and what its SCTP association has not yet sent (held
   * by its congestion and receive windows). Not the channel's bufferedAmount: werift lowers that
   * only once the association's whole queue empties, so under steady traffic it keeps growing for
   * a reader that keeps up.
   */
  waitingBytes() {
    const association = (
      this.pc.sctpTransport as unknown as { sctp?: { outboundQueue?: unknown[]; maxPayloadSize?: number } } | null
    )?.sctp;
    // Chunks are full-size but for each message's last: an upper bound, at O(1) a packet.
    return this.waitingInRelay + (association?.outboundQueue?.length ?? 0) * (association?.maxPayloadSize ?? 1200);
  }
}
