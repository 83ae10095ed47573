/**
 * LiveKit's server API (Twirp, JSON): RoomService, Egress (room composite, participant and track),
 * Ingress and AgentDispatchService,
 * acting on the participants connected over WebRTC — a removal disconnects the browser, a mute
 * mutes its real track, data reaches its data channel.
 */
import {
  AgentDispatch,
  CreateAgentDispatchRequest,
  CreateIngressRequest,
  DataPacket,
  DataPacket_Kind,
  DeleteAgentDispatchRequest,
  DeleteIngressRequest,
  DisconnectReason,
  EgressInfo,
  EgressStatus,
  IngressInfo,
  ListAgentDispatchRequest,
  ListAgentDispatchResponse,
  ListEgressRequest,
  ListEgressResponse,
  ListParticipantsResponse,
  ListRoomsResponse,
  MoveParticipantRequest,
  MuteRoomTrackRequest,
  MuteRoomTrackResponse,
  ParticipantEgressRequest,
  ParticipantPermission,
  RoomCompositeEgressRequest,
  SendDataRequest,
  StopEgressRequest,
  TrackEgressRequest,
  UpdateParticipantRequest,
  UserPacket,
} from '@livekit/protocol';
import {
  attributesBytes,
  newSid,
  PARTICIPANT_LIMITS,
  trackInfo,
  type DevParticipant,
  type DevRoom,
} from '../rtc/room-state';
import type { Registry } from '../rtc/registry';
import type { Authority } from './auth';
import type { Recorder } from '../egress/recorder';
import type { IngressService } from '../ingress';

export class TwirpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
  ) {
    super(msg);
  }
}

type Grant = 'roomCreate' | 'roomList' | 'roomAdmin' | 'roomRecord' | 'ingressAdmin';
export const METHODS: Record<string, { grant: Grant; needsRoom: boolean }> = {
  CreateRoom: { grant: 'roomCreate', needsRoom: false },
  ListRooms: { grant: 'roomList', needsRoom: false },
  DeleteRoom: { grant: 'roomCreate', needsRoom: false },
  UpdateRoomMetadata: { grant: 'roomAdmin', needsRoom: true },
  ListParticipants: { grant: 'roomAdmin', needsRoom: true },
  GetParticipant: { grant: 'roomAdmin', needsRoom: true },
  RemoveParticipant: { grant: 'roomAdmin', needsRoom: true },
  MutePublishedTrack: { grant: 'roomAdmin', needsRoom: true },
  UpdateParticipant: { grant: 'roomAdmin', needsRoom: true },
  MoveParticipant: { grant: 'roomAdmin', needsRoom: true },
  SendData: { grant: 'roomAdmin', needsRoom: true },
  StartRoomCompositeEgress: { grant: 'roomRecord', needsRoom: false },
  StartParticipantEgress: { grant: 'roomRecord', needsRoom: false },
  StartTrackEgress: { grant: 'roomRecord', needsRoom: false },
  StopEgress: { grant: 'roomRecord', needsRoom: false },
  ListEgress: { grant: 'roomRecord', needsRoom: false },
  CreateIngress: { grant: 'ingressAdmin', needsRoom: false },
  DeleteIngress: { grant: 'ingressAdmin', needsRoom: false },
  CreateDispatch: { grant: 'roomAdmin', needsRoom: true },
  DeleteDispatch: { grant: 'roomAdmin', needsRoom: true },
  ListDispatch: { grant: 'roomAdmin', needsRoom: true },
};

interface TwirpState {
  ingresses: Map<string, IngressInfo>;
  dispatches: Map<string, AgentDispatch>;
}

const opts = { ignoreUnknownFields: true };

export function createTwirpApi(deps: {
  registry: Registry;
  authority: Authority;
  recorder: Recorder;
  state: TwirpState;
  ingress: IngressService;
}) {
  const { registry, authority, recorder, state } = deps;

  async function authorize(header: string | undefined, method: string, body: Record<string, unknown>) {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!token) throw new TwirpError(401, 'unauthenticated', 'missing token');
    let claims;
    try {
      claims = await authority.claims(token);
    } catch (err) {
      throw new TwirpError(401, 'unauthenticated', (err as Error).message);
    }
    const rule = METHODS[method];
    const video = (claims.video ?? {}) as Record<string, unknown>;
    if (!video[rule.grant]) throw new TwirpError(403, 'permission_denied', `${rule.grant} grant required`);
    if (rule.needsRoom && video.room !== body.room)
      throw new TwirpError(403, 'permission_denied', 'token is for another room');
  }

  const room = (name: string): DevRoom => {
    const r = registry.rooms.get(name);
    if (!r) throw new TwirpError(404, 'not_found', `room ${name} not found`);
    return r;
  };
  const participant = (roomName: string, identity: string): DevParticipant => {
    const p = room(roomName).participants.get(identity);
    if (!p) throw new TwirpError(404, 'not_found', `participant ${identity} not found`);
    return p;
  };

  async function handle(method: string, body: Record<string, any>): Promise<unknown> {
    switch (method) {
      case 'CreateRoom': {
        const r = registry.open(String(body.name ?? ''));
        if (body.metadata) r.metadata = body.metadata;
        if (body.emptyTimeout) r.emptyTimeout = body.emptyTimeout;
        if (body.departureTimeout) r.departureTimeout = body.departureTimeout;
        if (body.maxParticipants) r.maxParticipants = body.maxParticipants;
        return r.info().toJson();
      }
      case 'ListRooms': {
        const names: string[] = body.names ?? [];
        const rooms = [...registry.rooms.values()].filter((r) => !names.length || names.includes(r.name));
        return new ListRoomsResponse({ rooms: rooms.map((r) => r.info()) }).toJson();
      }
      case 'DeleteRoom':
        registry.close(room(body.room), DisconnectReason.ROOM_DELETED);
        return {};
      case 'UpdateRoomMetadata': {
        const r = room(body.room);
        r.metadata = body.metadata ?? '';
        return r.info().toJson();
      }
      case 'ListParticipants':
        return new ListParticipantsResponse({
          participants: room(body.room)
            .visible()
            .map((p) => p.info()),
        }).toJson();
      case 'GetParticipant':
        return participant(body.room, body.identity).info().toJson();
      case 'RemoveParticipant': {
        const r = room(body.room);
        const p = participant(body.room, body.identity);
        if (p.link) p.link.close(DisconnectReason.PARTICIPANT_REMOVED);
        else registry.leave(r, p, DisconnectReason.PARTICIPANT_REMOVED);
        return {};
      }
      case 'MutePublishedTrack': {
        const req = MuteRoomTrackRequest.fromJson(body, opts);
        const p = participant(req.room, req.identity);
        const track = p.tracks.get(req.trackSid);
        if (!track) throw new TwirpError(404, 'not_found', 'track not found');
        if (p.link) p.link.requestMute(track.sid, req.muted);
        else {
          track.muted = req.muted;
          p.touch();
        }
        return new MuteRoomTrackResponse({ track: trackInfo(track) }).toJson();
      }
      case 'UpdateParticipant': {
        const req = UpdateParticipantRequest.fromJson(body, opts);
        const r = room(req.room);
        const p = participant(req.room, req.identity);
        const attributes = { ...p.attributes, ...req.attributes };
        // LiveKit's own limits, checked before anything changes (as the signaling path checks a client's).
        if (Buffer.byteLength(req.name) > PARTICIPANT_LIMITS.nameBytes)
          throw new TwirpError(400, 'invalid_argument', `name is over ${PARTICIPANT_LIMITS.nameBytes} bytes`);
        if (Buffer.byteLength(req.metadata) > PARTICIPANT_LIMITS.metadataBytes)
          throw new TwirpError(400, 'invalid_argument', `metadata is over ${PARTICIPANT_LIMITS.metadataBytes} bytes`);
        if (attributesBytes(attributes) > PARTICIPANT_LIMITS.attributesBytes)
          throw new TwirpError(
            400,
            'invalid_argument',
            `attributes are over ${PARTICIPANT_LIMITS.attributesBytes} bytes`,
          );
        if (body.metadata !== undefined) p.metadata = req.metadata;
        if (req.name) p.name = req.name;
        p.attributes = attributes;
        if (req.permission) registry.updatePermission(r, p, withPermission(p, req.permission));
        p.touch();
        r.broadcastUpdate(p);
        return p.info().toJson();
      }
      case 'MoveParticipant': {
        const req = MoveParticipantRequest.fromJson(body, opts);
        const from = room(req.room);
        const p = participant(req.room, req.identity);
        if (!req.destinationRoom) throw new TwirpError(400, 'invalid_argument', 'destination room required');
        const to = registry.open(req.destinationRoom);
        if (p.link) await p.link.moveTo(to);
        else registry.move(from, p, to);
        return {};
      }
      case 'SendData': {
        const req = SendDataRequest.fromJson(body, opts);
        const r = room(req.room);
        const packet = new DataPacket({
          kind: req.kind,
          destinationIdentities: req.destinationIdentities,
          value: {
            case: 'user',
            value: new UserPacket({
              payload: req.data,
              topic: req.topic,
              destinationIdentities: req.destinationIdentities,
            }),
          },
        }).toBinary();
        for (const p of r.connected()) {
          if (req.destinationIdentities.length && !req.destinationIdentities.includes(p.identity)) continue;
          p.link!.sendData(packet, req.kind !== DataPacket_Kind.LOSSY);
        }
        return {};
      }
      case 'StartRoomCompositeEgress': {
        const req = RoomCompositeEgressRequest.fromJson(body, opts);
        return (await recorder.start({ case: 'roomComposite', value: req }, body)).toJson();
      }
      case 'StartParticipantEgress': {
        const req = ParticipantEgressRequest.fromJson(body, opts);
        if (!req.identity) throw new TwirpError(400, 'invalid_argument', 'identity required');
        return (await recorder.start({ case: 'participant', value: req }, body)).toJson();
      }
      case 'StartTrackEgress': {
        const req = TrackEgressRequest.fromJson(body, opts);
        if (!req.trackId) throw new TwirpError(400, 'invalid_argument', 'track_id required');
        return (await recorder.start({ case: 'track', value: req }, body)).toJson();
      }
      case 'StopEgress': {
        const req = StopEgressRequest.fromJson(body, opts);
        return (await recorder.stop(req.egressId)).toJson();
      }
      case 'ListEgress': {
        const req = ListEgressRequest.fromJson(body, opts);
        return new ListEgressResponse({
          // As LiveKit filters: by room, by egress id, and to the ones still running when `active`.
          items: recorder
            .list()
            .filter(
              (e: EgressInfo) =>
                (!req.roomName || e.roomName === req.roomName) &&
                (!req.egressId || e.egressId === req.egressId) &&
                (!req.active || e.status < EgressStatus.EGRESS_COMPLETE),
            ),
        }).toJson();
      }
      case 'CreateIngress':
        return (await deps.ingress.create(CreateIngressRequest.fromJson(body, opts))).toJson();
      case 'DeleteIngress': {
        const info = deps.ingress.delete(DeleteIngressRequest.fromJson(body, opts).ingressId);
        if (!info) throw new TwirpError(404, 'not_found', 'ingress not found');
        return info.toJson();
      }
      case 'CreateDispatch': {
        const req = CreateAgentDispatchRequest.fromJson(body, opts);
        const dispatch = new AgentDispatch({
          id: newSid('AD'),
          agentName: req.agentName,
          room: req.room,
          metadata: req.metadata,
        });
        state.dispatches.set(dispatch.id, dispatch);
        return dispatch.toJson();
      }
      case 'DeleteDispatch': {
        const req = DeleteAgentDispatchRequest.fromJson(body, opts);
        const dispatch = state.dispatches.get(req.dispatchId);
        if (!dispatch) throw new TwirpError(404, 'not_found', 'dispatch not found');
        state.dispatches.delete(req.dispatchId);
        return dispatch.toJson();
      }
      case 'ListDispatch': {
        // What an agent worker polls to learn it is wanted in a room (agents/captions).
        const req = ListAgentDispatchRequest.fromJson(body, opts);
        const agentDispatches = [...state.dispatches.values()].filter(
          (d) => d.room === req.room && (!req.dispatchId || d.id === req.dispatchId),
        );
        return new ListAgentDispatchResponse({ agentDispatches }).toJson();
      }
      default:
        throw new TwirpError(404, 'bad_route', `unknown method ${method}`);
    }
  }

  return { authorize, handle };
}

function withPermission(p: DevParticipant, permission: ParticipantPermission): DevParticipant['permission'] {
  return {
    ...p.permission,
    canPublish: permission.canPublish,
    canSubscribe: permission.canSubscribe,
    canPublishData: permission.canPublishData,
    canPublishSources: permission.canPublishSources,
    canUpdateMetadata: permission.canUpdateMetadata,
  };
}
