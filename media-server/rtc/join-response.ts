/** What a client hears first on a signaling connection (v0 and v1): the room, itself, the others and this server. */
import { ClientConfiguration, JoinResponse, ServerInfo, ServerInfo_Edition } from '@livekit/protocol';
import type { DevParticipant, DevRoom } from './room-state';

const SERVER_VERSION = '1.9.0';
const PROTOCOL_VERSION = 16;

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
    subscriberPrimary: false,
    pingTimeout: 15,
    pingInterval: 5,
    clientConfiguration: new ClientConfiguration({}),
  });
}
