'use client';

import { useCallback, useEffect, useState } from 'react';
import { useRoomContext } from '@livekit/components-react';
import { RoomEvent } from 'livekit-client';
import type { MeetingResponse, ParticipantApi } from '@/components/call/participant-api';
import { useRoomLoad } from '@/components/call/useRoomLoad';
import { useLiveMessages } from '@/components/call/useLiveList';
import { LIVE_TOPICS } from '@/lib/live-topics';

/**
 * GET /api/v1/me/meeting, read on (re)connect and again whenever recording or captions start or
 * stop (the media layer's recording status; the server's captions update) or `refresh` is called.
 */
export function useMeetingState(api: ParticipantApi) {
  const room = useRoomContext();
  const [meeting, setMeeting] = useState<MeetingResponse | null>(null);
  const load = useCallback(async () => setMeeting(await api('GET', '/me/meeting')), [api]);
  const { reload } = useRoomLoad(load);
  const refresh = useCallback(() => void reload(), [reload]);
  useLiveMessages(LIVE_TOPICS.captions, refresh);
  useEffect(() => {
    room.on(RoomEvent.RecordingStatusChanged, refresh);
    return () => {
      room.off(RoomEvent.RecordingStatusChanged, refresh);
    };
  }, [room, refresh]);
  return { meeting, refresh };
}
