/** What a client hears first on a signaling connection (v0 and v1): the room, itself, the others and this server. */
import { ClientConfiguration, Codec, JoinResponse, ServerInfo, ServerInfo_Edition } from '@livekit/protocol';
import type { DevParticipant, DevRoom } from './room-state';
import { CARRIED_MIME_TYPES } from '../sfu/codecs';

const SERVER_VERSION = '1.9.0';
const PROTOCOL_VERSION = 16;

/**
 * The codecs a publisher may send (those this server carries), as LiveKit lists its room's enabled codecs (VP8 first: a client
 * asking for one not listed falls back to it). A client that has the list announces a track and
 * offers its section at once (livekit-client: `addTrack` and the offer side by side); without it,
 * livekit-client waited for the announcement's answer before it offered, a signaling round trip
 * on every publication — the joiner's camera reached the others that much later.
 */
const ENABLED_PUBLISH_CODECS = CARRIED_MIME_TYPES.map((mime) => new Codec({ mime }));

export function joinResponse(room: DevRoom, participant: DevParticipant) {
  return new JoinResponse({
    room: room.info(),
    participant: participant.info(),
    otherParticipants: room.visible(participant).map((p) => p.info()),
    serverVersion: SERVER_VERSION,
    serverRegion: 'local',
    serverInfo: new ServerInfo({
      edition: ServerInfo_Edition.Standard,
      version: SERVER_VERSION,
      protocol: PROTOCOL_VERSION,
      region: 'local',
      nodeId: 'convene-dev-media',
    }),
    iceServers: [],
    enabledPublishCodecs: ENABLED_PUBLISH_CODECS,
    subscriberPrimary: false,
    pingTimeout: 15,
    pingInterval: 5,
    clientConfiguration: new ClientConfiguration({}),
  });
}
