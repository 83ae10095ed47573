/**
 * One participant's subscriptions (LiveKit's subscribed tracks): each published track it receives,
 * forwarded on a section of its subscriber connection. v0: this server adds the section and offers
 * it. v1: the client's offer brings receive sections (rtc/negotiation.ts asks for them), which
 * subscriptions take as they come and give back, drained, when their track goes away. Key frame
 * requests go to the publishers of the videos it receives.
 */
import {
  MediaStream,
  MediaStreamTrack,
  PictureLossIndication,
  RtcpPayloadSpecificFeedback,
  type RTCPeerConnection,
  type RTCRtpCodecParameters,
  type RTCRtpTransceiver,
} from 'werift';
import { TrackType } from '@livekit/protocol';
import type { DevParticipant, DevRoom, DevTrack } from './room-state';
import { continueOnNewTrack, type Forwarding, type ForwardingStats, forwardTrack } from '../sfu/down-track';
import { codecsOf, primaryCodec, subscriberCodecsFromOffer, subscriberCodecsToOffer, useCodecs } from '../sfu/codecs';

/** RTCP payload-specific feedback format of a Full Intra Request (RFC 5104). */
const FIR_FORMAT = 4;

type MediaKind = 'audio' | 'video';

interface Subscription {
  kind: MediaKind;
  /** v1: none until the client's next offer brings a receive section for it. */
  transceiver?: RTCRtpTransceiver;
  /** None until it has a section to be sent in. */
  forwarding?: Forwarding;
}

export class Subscriptions {
  /** By track sid. */
  private readonly byTrack = new Map<string, Subscription>();
  /** Videos bound since the last key frame request for them (sent once the transport is up). */
  private readonly needKeyFrame = new Set<string>();
  /**
   * v1: receive sections whose track went away, not yet answered as inactive. A section is given
   * another track only once an answer has turned it inactive: the browser fires `track` again
   * (livekit-client then binds the new track sid, reusing the receiver's MediaStreamTrack, which
   * it only disables on unpublish) when a section starts sending anew, not when its msid changes.
   */
  private readonly draining = new Set<RTCRtpTransceiver>();
  /** Publishers (by sid) with a track given a section since the last description (takeNewlyBound). */
  private newlyBound = new Set<string>();
  /** The subscriber's DTLS transports whose key frame requests are read (watchKeyFrameRequests). */
  private readonly watchedTransports = new WeakSet<object>();

  constructor(
    private readonly participant: DevParticipant,
    /** v1: the one peer connection, the client's publisher too. */
    private readonly subscriber: RTCPeerConnection,
    /** v1 (one peer connection): the client offers the sections its subscriptions are sent in. */
    private readonly single: boolean,
    private readonly scope: {
      /** The room the participant is in now (a move changes it). */
      room(): DevRoom;
      /** Whether its session has ended: it subscribes to nothing more then. */
      ended(): boolean;
      stats: ForwardingStats;
      log: (msg: string) => void;
      /** Offers the subscriber connection again (v1: asks the client to). */
      negotiate(): void;
    },
  ) {
    // The key frames a new subscriber starts on are asked for as its ICE connects, and travel
    // while DTLS does (down-track.ts holds one that comes first); asked again once it is up if
    // none came.
    subscriber.iceConnectionStateChange.subscribe((state) => {
      if (state === 'connected' && subscriber.connectionState !== 'connected') this.askForKeyFrames();
    });
    subscriber.connectionStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      for (const sub of this.byTrack.values()) sub.forwarding?.transportUp();
      this.keyFramesForAll();
    });
  }

  add(publisher: DevParticipant, track: DevTrack) {
    // Every path (joining, a publication, a client's SubscriptionRequest) ends here: the grant decides.
    if (!this.participant.permission.canSubscribe) return;
    if (this.scope.ended() || this.byTrack.has(track.sid) || !track.media) return;
    const kind = track.type === TrackType.AUDIO ? 'audio' : 'video';
    if (this.single) {
      this.byTrack.set(track.sid, { kind });
      this.scope.negotiate();
      return;
    }
    const transceiver = this.subscriber.addTransceiver(new MediaStreamTrack({ kind }), {
      direction: 'sendonly',
      streams: [new MediaStream({ id: `${publisher.sid}|${track.sid}` })],
    });
    (transceiver.sender as { trackId: string }).trackId = track.sid; // the browser reads our track sid from the msid
    const codecs = subscriberCodecsToOffer(codecsOf(track));
    if (codecs) useCodecs(transceiver, codecs);
    this.attach(publisher.sid, track, transceiver);
    this.scope.negotiate();
  }

  /** Starts forwarding a track on a transceiver that sends it. */
  private attach(publisherSid: string, track: DevTrack, transceiver: RTCRtpTransceiver) {
    if (track.type === TrackType.VIDEO) this.needKeyFrame.add(track.sid);
    this.newlyBound.add(publisherSid);
    this.byTrack.set(track.sid, {
      kind: transceiver.kind === 'audio' ? 'audio' : 'video',
      transceiver,
      forwarding: forwardTrack(
        track.media!,
        transceiver,
        this.scope.stats,
        track.type === TrackType.VIDEO
          ? { mimeType: primaryCodec(codecsOf(track))?.mimeType ?? '', request: () => track.requestKeyFrame?.() }
          : undefined,
      ),
    });
  }

  /**
   * Passes a subscriber's key frame requests (PLI, FIR) to the publisher of the video they name by
   * SSRC. Read off the transport, not werift's per-sender events: werift routes feedback by its
   * sender SSRC first, and a browser that also publishes may sign its feedback with an SSRC werift
   * receives on — the request then went to that receiver and was lost, and a subscriber whose first
   * key frame was missed stayed black.
   */
  watchKeyFrameRequests() {
    for (const transport of this.subscriber.dtlsTransports) {
      if (this.watchedTransports.has(transport)) continue;
      this.watchedTransports.add(transport);
      transport.onRtcp.subscribe((rtcp) => {
        if (rtcp.type !== RtcpPayloadSpecificFeedback.type) return;
        const feedback = (rtcp as RtcpPayloadSpecificFeedback).feedback as {
          count: number;
          mediaSsrc: number;
          fir?: { ssrc: number }[];
        };
        const asked =
          feedback.count === PictureLossIndication.count
            ? [feedback.mediaSsrc]
            : feedback.count === FIR_FORMAT
              ? (feedback.fir ?? []).map((entry) => entry.ssrc)
              : [];
        for (const [sid, sub] of this.byTrack)
          if (sub.kind === 'video' && sub.transceiver && asked.includes(sub.transceiver.sender.ssrc))
            this.scope.room().findTrack(sid)?.track.requestKeyFrame?.();
      });
    }
  }

  /**
   * v1: gives each subscription still waiting a receive section of the client's current offer
   * that sends nothing (the client's own publications are its send sections). The track id goes
   * out in the answer's msid, as on v0.
   */
  bindWaiting() {
    const taken = new Set([...this.byTrack.values()].map((sub) => sub.transceiver));
    const free = this.freeSections(taken);
    for (const [sid, sub] of this.byTrack) {
      if (sub.transceiver) continue;
      const found = this.scope.room().findTrack(sid);
      if (!found?.track.media) {
        this.byTrack.delete(sid);
        continue;
      }
      const index = free.findIndex((t) => t.kind === sub.kind);
      if (index < 0) continue;
      const [transceiver] = free.splice(index, 1);
      transceiver.sender.setStreams([new MediaStream({ id: `${found.publisher.sid}|${sid}` })]);
      (transceiver.sender as { trackId: string }).trackId = sid;
      transceiver.setDirection('sendonly');
      continueOnNewTrack(transceiver);
      this.attach(found.publisher.sid, found.track, transceiver);
    }
  }

  /** v1: the client's receive sections that carry no track and may take one now. */
  private freeSections(taken: Set<RTCRtpTransceiver | undefined>) {
    return this.subscriber
      .getTransceivers()
      .filter((t) => t.mid != null && t.offerDirection === 'sendonly' && !taken.has(t) && !this.draining.has(t));
  }

  remove(trackSid: string) {
    const sub = this.byTrack.get(trackSid);
    if (!sub) return;
    this.byTrack.delete(trackSid);
    sub.forwarding?.stop();
    if (this.scope.ended() || !sub.transceiver) return;
    if (this.single) {
      // The section goes inactive in the next answer, then takes the next track that needs one.
      sub.transceiver.setDirection('inactive');
      sub.transceiver.sender.setStreams([]);
      this.draining.add(sub.transceiver);
    } else {
      try {
        this.subscriber.removeTrack(sub.transceiver.sender);
      } catch {
        // already gone with the connection
      }
    }
    this.scope.negotiate();
  }

  /**
   * Asks the publishers of the videos newly bound to this participant for a key frame (LiveKit
   * does on each new subscription: it cannot decode before one), once its transport is up; one
   * asked for as ICE connected (askForKeyFrames) and held for it is not asked again.
   */
  keyFramesForAll() {
    if (this.subscriber.connectionState !== 'connected') return;
    this.askForKeyFrames();
    this.needKeyFrame.clear();
  }

  private askForKeyFrames() {
    for (const sid of this.needKeyFrame) this.byTrack.get(sid)?.forwarding?.askForStart();
  }

  midToTrackId() {
    const map: Record<string, string> = {};
    for (const [sid, sub] of this.byTrack) if (sub.transceiver?.mid) map[sub.transceiver.mid] = sid;
    return map;
  }

  /**
   * v1: gives each section this server sends a track in that track's codec as this client offered
   * it. A client that offered no codec the track can be sent in gets nothing in that section.
   */
  useOfferedCodecs(offered: Map<string, RTCRtpCodecParameters[]>) {
    for (const [sid, sub] of this.byTrack) {
      const mid = sub.transceiver?.mid;
      const found = this.scope.room().findTrack(sid);
      const published = found && codecsOf(found.track);
      if (!sub.transceiver || mid == null || !published?.length) continue;
      const codecs = subscriberCodecsFromOffer(published, offered.get(mid) ?? []);
      if (codecs) useCodecs(sub.transceiver, codecs);
      else {
        this.scope.log(
          `${this.participant.identity} cannot receive ${primaryCodec(published)?.mimeType} (track ${sid})`,
        );
        sub.forwarding?.stop();
        sub.forwarding = undefined;
      }
    }
  }

  /** v1: subscriptions waiting for a receive section, and the free sections there are for them, per kind. */
  waitingAndFree() {
    const waiting = { audio: 0, video: 0 };
    for (const sub of this.byTrack.values()) if (!sub.transceiver) waiting[sub.kind]++;
    const taken = new Set([...this.byTrack.values()].map((sub) => sub.transceiver));
    const free = { audio: 0, video: 0 };
    for (const t of this.freeSections(taken)) free[t.kind === 'audio' ? 'audio' : 'video']++;
    return { waiting, free };
  }

  /** The publishers whose tracks got a section since the last call: the description going out names them anew. */
  takeNewlyBound() {
    const taken = this.newlyBound;
    this.newlyBound = new Set();
    return taken;
  }

  /** The sections a track is sent in now: a description written from them names those tracks. */
  sendingSections() {
    return new Set([...this.byTrack.values()].flatMap((sub) => (sub.transceiver ? [sub.transceiver] : [])));
  }

  /** The mids of `sections` (sendingSections, taken earlier) whose track has gone since. */
  stoppedSince(sections: Set<RTCRtpTransceiver>) {
    const now = this.sendingSections();
    return [...sections].flatMap((t) => (!now.has(t) && t.mid != null ? [t.mid] : []));
  }

  /** v1: the sections draining now, which the answer being written turns inactive. */
  drainingSections() {
    return [...this.draining];
  }

  /** v1: sections an answer turned inactive: free for another track from now on. */
  drained(sections: RTCRtpTransceiver[]) {
    for (const t of sections) this.draining.delete(t);
  }

  /** Stops forwarding everything (the session ended). */
  stopAll() {
    for (const sub of this.byTrack.values()) sub.forwarding?.stop();
    this.byTrack.clear();
  }
}
