/**
 * One participant's publications (LiveKit's participant publish side): the tracks its client
 * announces (AddTrackRequest), each published once media arrives in the section its offer gave
 * it, the codec each is answered with, and what leaves with its section.
 */
import type { MediaStreamTrack, RTCRtpCodecParameters, RTCRtpTransceiver } from 'werift';
import {
  AddTrackRequest,
  Encryption_Type,
  RequestResponse,
  RequestResponse_Reason,
  type SignalResponse,
  TrackPublishedResponse,
  TrackSource,
  TrackType,
} from '@livekit/protocol';
import {
  type DevParticipant,
  type DevRoom,
  type DevTrack,
  mayPublish,
  newSid,
  PARTICIPANT_LIMITS,
  trackInfo,
} from './room-state';
import type { Registry } from './registry';
import type { OfferSections } from './offer';
import { type IntervalLog, SESSION_LIMITS } from './limits';
import { announcedMimeType, publisherCodecs, useCodecs } from '../sfu/codecs';
import { ArrivalMeter } from '../sfu/quality';

const AUDIO_LEVEL_URI = 'urn:ietf:params:rtp-hdrext:ssrc-audio-level';
/** dBov below which a packet counts as speech (0 is loudest, 127 silence). */
const SPEECH_DBOV = 50;

export class Publications {
  /** RTP packets that arrived in a section no published track claims (dropped). */
  unannouncedRtp = 0;
  /** The browser's track id (LiveKit's "cid") in each section of the client's latest offer, by mid. */
  private cids = new Map<string, string>();
  /** The codecs each of the client's sending sections is answered with, by mid (codecs.ts). */
  private publishedCodecs = new Map<string, RTCRtpCodecParameters[]>();

  constructor(
    private readonly participant: DevParticipant,
    private readonly scope: {
      /** The room the participant is in now (a move changes it). */
      room(): DevRoom;
      registry: Registry;
      stats: { rtpIn: number };
      log: (msg: string) => void;
      send(message: SignalResponse['message']): void;
      /** Refused add-track requests, by reason. */
      refusals: IntervalLog;
      /** A track was announced: its section comes with the client's next offer. */
      announced(): void;
    },
  ) {}

  /**
   * Reads an offer before it is applied: the track id each section carries, and the codec each
   * section the client sends in is answered with (chosen before the offer is applied: a track's
   * codec is known when its media arrives): the one its AddTrackRequest named, else the first it
   * offers that this server carries.
   */
  readOffer(sections: OfferSections, offered: Map<string, RTCRtpCodecParameters[]>) {
    this.cids = new Map([...sections].flatMap(([mid, { cid }]) => (cid ? [[mid, cid] as const] : [])));
    this.publishedCodecs = new Map();
    for (const [mid, section] of sections) {
      if (!section.sending) continue;
      const track = [...this.participant.tracks.values()].find((t) => t.cid === section.cid);
      const codecs = publisherCodecs(offered.get(mid) ?? [], track?.preference);
      if (codecs) this.publishedCodecs.set(mid, codecs);
    }
  }

  /**
   * Gives each section the client sends in of the applied offer the codec chosen for it (werift
   * negotiated every codec both sides list).
   */
  useChosenCodecs(transceivers: RTCRtpTransceiver[]) {
    for (const transceiver of transceivers) {
      const codecs = transceiver.mid != null ? this.publishedCodecs.get(transceiver.mid) : undefined;
      if (codecs) useCodecs(transceiver, codecs, { publishing: true });
    }
  }

  /**
   * The client unpublishes a track by no longer sending in its section (livekit-client removes
   * the sender and offers again): the track leaves the room, as on LiveKit.
   */
  unpublishStopped(sections: OfferSections) {
    for (const track of [...this.participant.tracks.values()]) {
      if (!track.media || track.mid === undefined || sections.get(track.mid)?.sending) continue;
      this.scope.registry.unpublish(this.scope.room(), this.participant, track);
    }
  }

  /** A client's AddTrackRequest: the track is announced, published once its media arrives (onMedia). */
  add(req: AddTrackRequest) {
    const p = this.participant;
    // Refused as LiveKit does: a RequestResponse naming the request, which the SDKs surface as a failed publish.
    const refuse = (reason: RequestResponse_Reason, message: string, request = req) => {
      this.scope.refusals.count(`addTrack: ${message}`);
      this.scope.send({
        case: 'requestResponse',
        value: new RequestResponse({ reason, message, request: { case: 'addTrack', value: request } }),
      });
    };
    if (!mayPublish(p.permission, req.source))
      return refuse(RequestResponse_Reason.NOT_ALLOWED, `may not publish ${TrackSource[req.source]}`);
    if (req.type !== TrackType.AUDIO && req.type !== TrackType.VIDEO)
      return refuse(RequestResponse_Reason.UNSUPPORTED_TYPE, `cannot publish a track of type ${req.type}`);
    // Every update about this participant carries its tracks' names to everyone in the room.
    const overlong = (['name', 'cid', 'stream'] as const).find(
      (field) => Buffer.byteLength(req[field]) > PARTICIPANT_LIMITS.trackNameBytes,
    );
    if (overlong)
      return refuse(
        RequestResponse_Reason.INVALID_NAME,
        `a track ${overlong} over ${PARTICIPANT_LIMITS.trackNameBytes} bytes`,
        // The refusal names the request without echoing its oversized text.
        new AddTrackRequest({
          cid: req.cid.slice(0, PARTICIPANT_LIMITS.trackNameBytes),
          type: req.type,
          source: req.source,
        }),
      );
    if (p.tracks.size >= SESSION_LIMITS.tracksPerParticipant)
      return refuse(
        RequestResponse_Reason.LIMIT_EXCEEDED,
        `at most ${SESSION_LIMITS.tracksPerParticipant} published tracks per participant`,
      );
    const video = req.type === TrackType.VIDEO;
    const named = req.simulcastCodecs[0]?.codec.replace(/^(audio|video)\//, '');
    const preference = {
      codec: named ? `${video ? 'video' : 'audio'}/${video ? named.toUpperCase() : named}` : undefined,
      red: !video && !req.disableRed,
    };
    const track: DevTrack = {
      sid: newSid('TR'),
      cid: req.cid,
      type: req.type,
      source: req.source,
      name: req.name,
      muted: req.muted,
      width: req.width,
      height: req.height,
      // The codec it asked for until its media arrives, then the one its section was answered with.
      mimeType: preference.codec ?? '',
      preference,
      pending: true,
      encryption: req.encryption ?? Encryption_Type.NONE,
      stream: req.stream,
    };
    p.tracks.set(track.sid, track);
    this.scope.announced();
    this.scope.send({
      case: 'trackPublished',
      value: new TrackPublishedResponse({ cid: req.cid, track: trackInfo(track) }),
    });
    p.touch();
    this.scope.room().broadcastUpdate(p);
  }

  /** Media arrived in a section of the client's: the track announced for it is published. */
  onMedia(media: MediaStreamTrack, transceiver: RTCRtpTransceiver) {
    const cid = transceiver.mid ? this.cids.get(transceiver.mid) : undefined;
    const tracks = [...this.participant.tracks.values()];
    const kind = media.kind === 'audio' ? TrackType.AUDIO : TrackType.VIDEO;
    // By kind only for a track whose own section is not in the offer (a browser may put another
    // id in the msid than the one it announced, as LiveKit allows): an extra, unannounced section
    // never takes a track announced for another.
    const offered = new Set(this.cids.values());
    const track =
      tracks.find((t) => t.cid === cid && !t.media) ??
      tracks.find((t) => !t.media && t.type === kind && !offered.has(t.cid));
    if (!track) {
      this.scope.log(`media without a published track from ${this.participant.identity} (mid ${transceiver.mid})`);
      media.onReceiveRtp.subscribe(() => this.unannouncedRtp++);
      return;
    }
    track.media = media;
    track.mid = transceiver.mid ?? undefined;
    const codecs = track.mid !== undefined ? this.publishedCodecs.get(track.mid) : undefined;
    if (codecs) {
      track.codecs = codecs;
      track.mimeType = announcedMimeType(codecs) ?? '';
    }
    // Published: the others learn of it, in the codec it is sent in, before its first subscription.
    track.pending = false;
    this.participant.touch();
    this.scope.room().broadcastUpdate(this.participant);
    const arrivals = new ArrivalMeter(media.kind === 'audio' ? 48000 : 90000);
    track.arrivals = arrivals;
    media.onReceiveRtp.subscribe((rtp, extensions) => {
      this.scope.stats.rtpIn++;
      arrivals.record(rtp.header.sequenceNumber, rtp.header.timestamp);
      const audio = extensions?.[AUDIO_LEVEL_URI] as { level: number } | undefined;
      if (audio && audio.level < SPEECH_DBOV) track.speech = { at: Date.now(), level: Math.pow(10, -audio.level / 20) };
    });
    let lastKeyFrameRequest = 0;
    let trailingRequest = false;
    // Asked for before the first packet told the SSRC: sent when it comes.
    let keyFrameOnFirstPacket = false;
    media.onReceiveRtp.subscribe(() => {
      if (!keyFrameOnFirstPacket) return;
      keyFrameOnFirstPacket = false;
      track.requestKeyFrame?.();
    });
    track.requestKeyFrame = () => {
      // At most one request per 200 ms: several subscribers joining at once need one key frame. A
      // request inside the window is sent at its end rather than dropped: the subscriber asking
      // may be the one the earlier key frame came too soon for.
      const ssrc = media.ssrc ?? media.header?.ssrc; // a simulcast layer's SSRC is learnt from its packets
      if (ssrc === undefined) {
        keyFrameOnFirstPacket = true;
        return;
      }
      const wait = lastKeyFrameRequest + 200 - Date.now();
      if (wait > 0) {
        if (trailingRequest) return;
        trailingRequest = true;
        setTimeout(() => {
          trailingRequest = false;
          track.requestKeyFrame?.();
        }, wait);
        return;
      }
      lastKeyFrameRequest = Date.now();
      transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
    };
    this.scope.registry.publish(this.scope.room(), this.participant, track);
  }

  mute(trackSid: string, muted: boolean) {
    const track = this.participant.tracks.get(trackSid);
    if (!track || track.muted === muted) return;
    track.muted = muted;
    this.participant.touch();
    this.scope.room().broadcastUpdate(this.participant);
  }
}
