/**
 * One session's offers and answers (LiveKit's transport manager). v0: the client offers on its
 * publisher connection, this server offers on the subscriber connection (one offer in flight at a
 * time). v1: one connection, the client always offers; when subscriptions need receive sections,
 * this server asks for them (MediaSectionsRequirement) and fills them in its answer to the next
 * offer. Every SDP is bounded in size and in bytes per second before it is parsed.
 */
import type { RTCPeerConnection } from 'werift';
import { MediaSectionsRequirement, SessionDescription, type SignalResponse } from '@livekit/protocol';
import type { DevParticipant, DevTrack } from './room-state';
import { answerAsDtlsServer, handOverEarlyHandshakes, withSectionsStopped } from './answer';
import { readableOffer, sectionsByMid } from './offer';
import { SESSION_LIMITS, TokenBucket } from './limits';
import type { Publications } from './publications';
import type { Subscriptions } from './subscriptions';
import { offeredCodecs } from '../sfu/codecs';

/** v1: how long a client that announced a track is waited for to offer its section. */
const OFFER_AFTER_ADD_TRACK_MS = 2000;

export class Negotiation {
  private readonly sdpBytes = new TokenBucket(SESSION_LIMITS.sdpBytesPerSecond, SESSION_LIMITS.sdpByteBurst);
  /** The client's sections kept as one stream from offer to offer (rtc/offer.ts), by mid. */
  private readonly oneStreamSections = new Set<string>();
  private offerChain = Promise.resolve();
  private subscriberOfferId = 0;
  private subscriberBusy = false;
  private subscriberDirty = false;
  /** v1: receive sections asked of the client since its last offer was answered, per kind. */
  private sectionsAsked = { audio: 0, video: 0 };
  private sectionsRequestQueued = false;
  /**
   * v1: an offer of the client's is on its way — the join request's, or the one a track it just
   * announced needs — and its answer asks for receive sections. Asking while the client offers
   * makes two negotiations meet: the Rust SDK then never offers again and stops reading its
   * signal messages (its next publish timed out). A client that offers nothing by the deadline
   * is asked then.
   */
  private offerComing: { until: number; timer?: NodeJS.Timeout } | undefined;
  /** v1: announced tracks already asked for once more (askAgainForMissing). */
  private readonly askedAgain = new Set<string>();
  /**
   * Publishers (by sid) whose tracks the last description sent gave the client anew, until the
   * client shows it applied it: its next offer on v1 (livekit-client offers only once our answer
   * is applied), its answer on v0. The browser fires `track` for them only then.
   */
  private unapplied = new Set<string>();

  constructor(
    private readonly participant: DevParticipant,
    /** The connection the client offers on. */
    private readonly publisher: RTCPeerConnection,
    /** The connection this server sends on (v1: the publisher). */
    private readonly subscriber: RTCPeerConnection,
    /** v1 (one peer connection): the subscriber is the publisher. */
    private readonly single: boolean,
    private readonly scope: {
      publications: Publications;
      subscriptions: Subscriptions;
      send(message: SignalResponse['message']): void;
      /** Ends the connection for a broken limit, telling the client why. */
      refuse(reason: string): void;
      /** Whether the session has ended: nothing is negotiated any more. */
      ended(): boolean;
      /** The client has applied the last description this server sent (see `unapplied`). */
      applied(): void;
      log: (msg: string) => void;
    },
  ) {}

  /** v1: the join request carries an offer; it is answered before any request for sections goes out. */
  awaitJoinOffer() {
    this.offerComing = { until: Infinity };
  }

  /** v1: a track was announced; its offer is awaited (OFFER_AFTER_ADD_TRACK_MS at most) before sections are asked for. */
  trackAnnounced() {
    if (this.single && !this.offerComing) this.offerComing = { until: performance.now() + OFFER_AFTER_ADD_TRACK_MS };
  }

  /** Whether an SDP may be parsed: within the size and the bytes-per-second bounds (else the connection is closed). */
  private admitSdp(sdp: string, what: 'offer' | 'answer') {
    const bytes = Buffer.byteLength(sdp);
    if (bytes > SESSION_LIMITS.sdpBytes) {
      this.scope.refuse(`an ${what} of ${bytes} bytes (at most ${SESSION_LIMITS.sdpBytes})`);
      return false;
    }
    if (this.sdpBytes.take(bytes)) return true;
    this.scope.refuse(
      `more than ${SESSION_LIMITS.sdpBytesPerSecond} bytes of SDP per second (burst ${SESSION_LIMITS.sdpByteBurst})`,
    );
    return false;
  }

  /** Whether the description the client is applying now gives it tracks of this publisher (by sid). */
  applying(publisherSid: string) {
    return this.unapplied.has(publisherSid);
  }

  private sentDescription() {
    this.unapplied = this.scope.subscriptions.takeNewlyBound();
  }

  private descriptionApplied() {
    this.unapplied.clear();
    this.scope.applied();
  }

  /** The client's offer (v0: on its publisher connection), answered in turn after any offer before it. */
  onPublisherOffer(sd: SessionDescription) {
    if (this.single) this.descriptionApplied();
    clearTimeout(this.offerComing?.timer);
    this.offerComing = undefined;
    if (!this.admitSdp(sd.sdp, 'offer')) return Promise.resolve();
    const sections = sd.sdp.split('\nm=').length - 1;
    if (sections > SESSION_LIMITS.mediaSectionsPerOffer) {
      this.scope.refuse(`an offer of ${sections} media sections (at most ${SESSION_LIMITS.mediaSectionsPerOffer})`);
      return Promise.resolve();
    }
    // Announced before this offer came: each should have its section in it.
    const announced = [...this.participant.tracks.values()].filter((t) => !t.media);
    const answered = this.offerChain.then(async () => {
      const sdp = readableOffer(sd.sdp, this.oneStreamSections);
      const sections = sectionsByMid(sdp);
      const offered = offeredCodecs(sdp);
      this.scope.publications.readOffer(sections, offered);
      await this.publisher.setRemoteDescription({ type: 'offer', sdp });
      this.scope.publications.unpublishStopped(sections);
      if (this.single) this.scope.subscriptions.bindWaiting();
      this.scope.publications.useChosenCodecs(this.publisher.getTransceivers());
      if (this.single) this.scope.subscriptions.useOfferedCodecs(offered);
      // Sections freed by now go out inactive in this answer: free for another track after it.
      const drained = this.scope.subscriptions.drainingSections();
      const sending = this.scope.subscriptions.sendingSections();
      await answerAsDtlsServer(this.publisher);
      if (this.single) this.scope.subscriptions.watchKeyFrameRequests();
      this.scope.send({
        case: 'answer',
        value: new SessionDescription({
          type: 'answer',
          sdp: withSectionsStopped(
            this.publisher.localDescription!.sdp,
            this.scope.subscriptions.stoppedSince(sending),
          ),
          id: sd.id,
          midToTrackId: this.single ? this.scope.subscriptions.midToTrackId() : {},
        }),
      });
      if (this.single) this.sentDescription();
      if (!this.single) return;
      this.scope.subscriptions.drained(drained);
      this.scope.subscriptions.keyFramesForAll();
      this.sectionsAsked = { audio: 0, video: 0 };
      this.askForSections(false);
      this.askAgainForMissing(announced);
    });
    // A failed offer is reported to the caller; the next one still runs.
    this.offerChain = answered.catch(() => undefined);
    return answered;
  }

  /**
   * v1: a track announced before an offer that lacks its section is asked for once more, a second
   * later if still missing. The Rust SDK can lose its own renegotiation: a track added while it is
   * offering for one of our MediaSectionsRequirements is never offered, and never heard.
   */
  private askAgainForMissing(announced: DevTrack[]) {
    const missing = announced.filter((t) => !t.media && !this.askedAgain.has(t.sid));
    if (!missing.length) return;
    for (const track of missing) this.askedAgain.add(track.sid);
    setTimeout(() => {
      if (missing.some((t) => !t.media && this.participant.tracks.get(t.sid) === t)) this.negotiateSubscriber();
    }, 1000).unref();
  }

  /**
   * v1: asks the client for as many new receive sections as subscriptions wait beyond the free
   * ones (LiveKit's MediaSectionsRequirement); the client adds them and offers again. forced: asks
   * even for none, so the client offers again (a section to fill or to turn inactive).
   */
  private askForSections(forced: boolean) {
    const { waiting, free } = this.scope.subscriptions.waitingAndFree();
    const numAudios = Math.max(0, waiting.audio - free.audio - this.sectionsAsked.audio);
    const numVideos = Math.max(0, waiting.video - free.video - this.sectionsAsked.video);
    // A free section (one just answered inactive) takes a waiting track only in the next offer.
    const fillable = Math.min(waiting.audio, free.audio) + Math.min(waiting.video, free.video) > 0;
    if (!forced && !fillable && numAudios + numVideos === 0) return;
    this.sectionsAsked.audio += numAudios;
    this.sectionsAsked.video += numVideos;
    this.scope.send({
      case: 'mediaSectionsRequirement',
      value: new MediaSectionsRequirement({ numAudios, numVideos }),
    });
  }

  /** Offers the subscriber connection again (v1: asks the client to); one offer in flight at a time. */
  negotiateSubscriber() {
    if (this.scope.ended()) return;
    if (this.single) {
      // Once per burst of changes, after any offer being answered (whose answer may take them in).
      if (this.sectionsRequestQueued) return;
      if (this.offerComing && performance.now() < this.offerComing.until) {
        if (Number.isFinite(this.offerComing.until))
          this.offerComing.timer ??= setTimeout(() => {
            this.offerComing = undefined;
            this.negotiateSubscriber();
          }, this.offerComing.until - performance.now()).unref();
        return;
      }
      this.sectionsRequestQueued = true;
      this.offerChain = this.offerChain.then(() => {
        this.sectionsRequestQueued = false;
        this.askForSections(true);
      });
      return;
    }
    if (this.subscriberBusy) {
      this.subscriberDirty = true;
      return;
    }
    this.subscriberBusy = true;
    this.subscriberDirty = false;
    void (async () => {
      try {
        const sending = this.scope.subscriptions.sendingSections();
        const offer = await this.subscriber.createOffer();
        await this.subscriber.setLocalDescription(offer);
        handOverEarlyHandshakes(this.subscriber);
        this.scope.subscriptions.watchKeyFrameRequests();
        const midToTrackId = this.scope.subscriptions.midToTrackId();
        this.scope.send({
          case: 'offer',
          value: new SessionDescription({
            type: 'offer',
            sdp: withSectionsStopped(
              this.subscriber.localDescription!.sdp,
              this.scope.subscriptions.stoppedSince(sending),
            ),
            id: ++this.subscriberOfferId,
            midToTrackId,
          }),
        });
        this.sentDescription();
      } catch (err) {
        this.subscriberBusy = false;
        this.scope.log(`subscriber offer for ${this.participant.identity}: ${(err as Error).message}`);
      }
    })();
  }

  async onSubscriberAnswer(sd: SessionDescription) {
    if (!this.admitSdp(sd.sdp, 'answer')) return;
    try {
      await this.subscriber.setRemoteDescription({ type: 'answer', sdp: sd.sdp });
      this.descriptionApplied();
      this.scope.subscriptions.keyFramesForAll();
    } finally {
      this.subscriberBusy = false;
      if (this.subscriberDirty) this.negotiateSubscriber();
    }
  }
}
