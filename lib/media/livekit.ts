import { createSecretKey } from 'node:crypto';
import {
  AgentDispatchClient,
  DirectFileOutput,
  EgressClient,
  EncodedFileOutput,
  EncodingOptionsPreset,
  IngressClient,
  IngressInput,
  S3Upload,
  StreamOutput,
  StreamProtocol,
  EgressStatus,
  DataPacket_Kind,
  RoomServiceClient,
  TokenVerifier,
  TrackSource,
  TrackType,
  WebhookReceiver,
  type ParticipantInfo,
} from 'livekit-server-sdk';
import { metrics } from '@/lib/metrics';
import { isMediaJwtAlgorithm, MEDIA_JWT_ALGORITHM, signMediaJwt } from '@/lib/media/jwt';
import {
  MediaAuthError,
  MediaLayerError,
  isMediaNotFound,
  type MediaCredentials,
  type MediaLayer,
  type MediaParticipant,
  type ParticipantGrants,
  type PublishSource,
} from '@/lib/media/types';

const SOURCES: Record<PublishSource, TrackSource> = {
  camera: TrackSource.CAMERA,
  microphone: TrackSource.MICROPHONE,
  screen_share: TrackSource.SCREEN_SHARE,
  screen_share_audio: TrackSource.SCREEN_SHARE_AUDIO,
};

// IngressState.Status values (not re-exported by the server SDK).
const INGRESS_STATES = [
  'ENDPOINT_INACTIVE',
  'ENDPOINT_BUFFERING',
  'ENDPOINT_PUBLISHING',
  'ENDPOINT_ERROR',
  'ENDPOINT_COMPLETE',
];

const toDate = (seconds: bigint | number | undefined) => (seconds ? new Date(Number(seconds) * 1000) : null);
/** Egress reports times in nanoseconds since the epoch. */
const fileStart = (nanoseconds: bigint | undefined) =>
  nanoseconds ? new Date(Number(nanoseconds / 1_000_000n)) : null;

function participantOf(p: ParticipantInfo): MediaParticipant {
  return {
    identity: p.identity,
    sid: p.sid,
    name: p.name,
    metadata: p.metadata,
    joinedAt: toDate(p.joinedAt),
    tracks: p.tracks.map((t) => ({
      sid: t.sid,
      type: t.type === TrackType.AUDIO ? 'AUDIO' : t.type === TrackType.VIDEO ? 'VIDEO' : 'DATA',
      source: TrackSource[t.source] ?? 'UNKNOWN',
      muted: t.muted,
    })),
    attributes: { ...p.attributes },
  };
}

function permissionOf(grants: ParticipantGrants) {
  return {
    canPublish: grants.canPublish,
    canSubscribe: grants.canSubscribe,
    canPublishData: grants.canPublishData,
    canPublishSources: grants.canPublishSources?.map((s) => SOURCES[s]) ?? [],
  };
}

/** The LiveKit implementation: the only one in the product; tests run it against a fake server. */
export function createLiveKitMediaLayer(credentials: MediaCredentials): MediaLayer {
  const { url, apiKey, apiSecret } = credentials;
  const host = url.replace(/^ws/, 'http');
  const rooms = new RoomServiceClient(host, apiKey, apiSecret);
  const egress = new EgressClient(host, apiKey, apiSecret);
  const ingress = new IngressClient(host, apiKey, apiSecret);
  const agents = new AgentDispatchClient(host, apiKey, apiSecret);
  const verifier = new TokenVerifier(apiKey, apiSecret);
  const receiver = new WebhookReceiver(apiKey, apiSecret);
  const signingKey = createSecretKey(Buffer.from(apiSecret, 'utf8'));

  // Every server call: timed for metrics, failures wrapped so the API can answer 502.
  async function call<T>(method: string, fn: () => Promise<T>): Promise<T> {
    const stop = metrics().mediaDuration.startTimer({ method });
    try {
      const result = await fn();
      stop({ outcome: 'ok' });
      return result;
    } catch (err) {
      stop({ outcome: 'error' });
      const e = err as { message?: string; status?: number; code?: string };
      throw new MediaLayerError(`Media layer ${method} failed: ${e.message ?? String(err)}`, e.status, e.code, {
        cause: err,
      });
    }
  }

  /** A delete that finds its target already gone has done its job. */
  async function callIgnoringNotFound(method: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await call(method, fn);
    } catch (err) {
      if (!isMediaNotFound(err)) throw err;
    }
  }

  const encodedFile = (file: NonNullable<Parameters<MediaLayer['startTrackEgress']>[2]['file']>) =>
    new EncodedFileOutput({
      filepath: file.filepath,
      ...(file.s3 ? { output: { case: 's3', value: new S3Upload({ ...file.s3 }) } } : {}),
    });

  const layer: MediaLayer = {
    url,
    async deleteRoom(name) {
      await callIgnoringNotFound('deleteRoom', () => rooms.deleteRoom(name));
    },
    async listRooms(names) {
      const list = await call('listRooms', () => rooms.listRooms(names));
      return list.map((r) => ({
        name: r.name,
        sid: r.sid,
        numParticipants: r.numParticipants,
        metadata: r.metadata,
        createdAt: toDate(r.creationTime),
      }));
    },
    async listParticipants(room) {
      return (await call('listParticipants', () => rooms.listParticipants(room))).map(participantOf);
    },
    async isInRoom(room, identity) {
      try {
        await call('getParticipant', () => rooms.getParticipant(room, identity));
        return true;
      } catch (err) {
        if (isMediaNotFound(err)) return false;
        throw err;
      }
    },
    async removeParticipant(room, identity) {
      await call('removeParticipant', () => rooms.removeParticipant(room, identity));
    },
    async updateParticipant(room, identity, update) {
      await call('updateParticipant', () =>
        rooms.updateParticipant(room, identity, {
          metadata: update.metadata,
          permission: update.grants ? permissionOf(update.grants) : undefined,
          attributes: update.attributes,
        }),
      );
    },
    async muteAllAudio(room, exceptIdentities) {
      const participants = await layer.listParticipants(room);
      let muted = 0;
      for (const p of participants) {
        if (exceptIdentities.has(p.identity)) continue;
        for (const t of p.tracks) {
          if (t.type !== 'AUDIO' || t.muted) continue;
          await call('mutePublishedTrack', () => rooms.mutePublishedTrack(room, p.identity, t.sid, true));
          muted++;
        }
      }
      return muted;
    },
    async muteTracks(room, identity, source) {
      const participant = await call('getParticipant', () => rooms.getParticipant(room, identity));
      let muted = 0;
      for (const t of participantOf(participant).tracks) {
        if (t.source !== source || t.muted) continue;
        await call('mutePublishedTrack', () => rooms.mutePublishedTrack(room, identity, t.sid, true));
        muted++;
      }
      return muted;
    },
    async moveParticipant(room, identity, destinationRoom) {
      await call('moveParticipant', () => rooms.moveParticipant(room, identity, destinationRoom));
    },
    async sendData(room, payload, opts) {
      const data = new TextEncoder().encode(JSON.stringify(payload));
      await call('sendData', () =>
        rooms.sendData(room, data, DataPacket_Kind.RELIABLE, {
          topic: opts.topic,
          destinationIdentities: opts.destinationIdentities,
        }),
      );
    },
    async startRoomCompositeEgress(room, target, opts = {}) {
      const outputs: { file?: EncodedFileOutput; stream?: StreamOutput } = {};
      if (target.file) {
        outputs.file = new EncodedFileOutput({
          filepath: target.file.filepath,
          ...(target.file.s3 ? { output: { case: 's3', value: new S3Upload({ ...target.file.s3 }) } } : {}),
        });
      }
      if (target.streamUrls?.length)
        outputs.stream = new StreamOutput({ protocol: StreamProtocol.RTMP, urls: target.streamUrls });
      const preset = opts.encodingPreset
        ? EncodingOptionsPreset[opts.encodingPreset as keyof typeof EncodingOptionsPreset]
        : undefined;
      const info = await call('startRoomCompositeEgress', () =>
        egress.startRoomCompositeEgress(room, outputs, {
          layout: opts.layout,
          audioOnly: opts.audioOnly,
          ...(preset !== undefined ? { encodingOptions: preset } : {}),
        }),
      );
      return { egressId: info.egressId, status: EgressStatus[info.status] ?? 'UNKNOWN' };
    },
    async startParticipantEgress(room, identity, target, opts = {}) {
      const preset = opts.encodingPreset
        ? EncodingOptionsPreset[opts.encodingPreset as keyof typeof EncodingOptionsPreset]
        : undefined;
      const info = await call('startParticipantEgress', () =>
        egress.startParticipantEgress(
          room,
          identity,
          { file: encodedFile(target.file) },
          { screenShare: opts.screenShare ?? false, ...(preset !== undefined ? { encodingOptions: preset } : {}) },
        ),
      );
      return { egressId: info.egressId, status: EgressStatus[info.status] ?? 'UNKNOWN' };
    },
    async startTrackEgress(room, trackSid, target) {
      const output = new DirectFileOutput({
        filepath: target.file.filepath,
        ...(target.file.s3 ? { output: { case: 's3', value: new S3Upload({ ...target.file.s3 }) } } : {}),
      });
      const info = await call('startTrackEgress', () => egress.startTrackEgress(room, output, trackSid));
      return { egressId: info.egressId, status: EgressStatus[info.status] ?? 'UNKNOWN' };
    },
    async stopEgress(egressId) {
      await call('stopEgress', () => egress.stopEgress(egressId));
    },
    async createIngress(request) {
      const info = await call('createIngress', () =>
        ingress.createIngress(request.inputType === 'WHIP' ? IngressInput.WHIP_INPUT : IngressInput.RTMP_INPUT, {
          name: request.name,
          roomName: request.roomName,
          participantIdentity: request.participantIdentity,
          participantName: request.participantName,
          enableTranscoding: request.enableTranscoding,
        }),
      );
      return { ingressId: info.ingressId, url: info.url, streamKey: info.streamKey };
    },
    async deleteIngress(ingressId) {
      await callIgnoringNotFound('deleteIngress', () => ingress.deleteIngress(ingressId));
    },
    async createAgentDispatch(room, agentName, metadata) {
      const dispatch = await call('createDispatch', () => agents.createDispatch(room, agentName, { metadata }));
      return { dispatchId: dispatch.id };
    },
    async deleteAgentDispatch(dispatchId, room) {
      await callIgnoringNotFound('deleteDispatch', () => agents.deleteDispatch(dispatchId, room));
    },
    async mintParticipantToken(request) {
      // AccessToken's claims, in its order (metadata and name only when set; exp and nbf in whole
      // seconds), signed without jose's async chain: signMediaJwt in lib/media/jwt.ts.
      const now = Math.floor(Date.now() / 1000);
      return signMediaJwt(
        {
          ...(request.metadata ? { metadata: request.metadata } : {}),
          ...(request.name ? { name: request.name } : {}),
          video: {
            roomJoin: true,
            room: request.roomName,
            canPublish: request.grants.canPublish,
            canSubscribe: request.grants.canSubscribe,
            canPublishData: request.grants.canPublishData,
            canPublishSources: request.grants.canPublishSources,
            canUpdateOwnMetadata: false,
          },
          iss: apiKey,
          exp: now + request.ttlSeconds,
          nbf: now,
          sub: request.identity,
        },
        signingKey,
      );
    },
    async verifyParticipantToken(token) {
      if (!isMediaJwtAlgorithm(token)) throw new MediaAuthError(`Participant tokens are signed ${MEDIA_JWT_ALGORITHM}`);
      const claims = await verifier.verify(token);
      if (!claims.sub || !claims.video?.room || !claims.video.roomJoin)
        throw new MediaAuthError('Not a participant token');
      return {
        identity: claims.sub,
        roomName: claims.video.room,
        metadata: claims.metadata ?? '',
        expiresAt: new Date(((claims as { exp?: number }).exp ?? 0) * 1000),
      };
    },
    async receiveWebhook(rawBody, authorization) {
      let event;
      try {
        event = await receiver.receive(rawBody, authorization ?? undefined);
      } catch (err) {
        throw new MediaAuthError(err instanceof Error ? err.message : 'invalid media webhook');
      }
      return {
        id: event.id,
        event: event.event,
        createdAt: toDate(event.createdAt),
        room: event.room ? { name: event.room.name, sid: event.room.sid } : undefined,
        participant: event.participant
          ? {
              identity: event.participant.identity,
              sid: event.participant.sid,
              joinedAt: toDate(event.participant.joinedAt),
            }
          : undefined,
        egress: event.egressInfo
          ? {
              egressId: event.egressInfo.egressId,
              roomName: event.egressInfo.roomName,
              status: EgressStatus[event.egressInfo.status] ?? 'UNKNOWN',
              error: event.egressInfo.error,
              fileStartedAt: fileStart(event.egressInfo.fileResults[0]?.startedAt),
            }
          : undefined,
        ingress: event.ingressInfo
          ? {
              ingressId: event.ingressInfo.ingressId,
              roomName: event.ingressInfo.roomName,
              status: INGRESS_STATES[event.ingressInfo.state?.status ?? 0] ?? 'UNKNOWN',
            }
          : undefined,
      };
    },
  };
  return layer;
}
