'use client';

import { createContext, useContext } from 'react';
import type { JoinToken } from '@/lib/domain/join-token';
import type { MeetingResponse, ParticipantApi } from '@/components/call/participant-api';
import type { Self } from '@/components/call/useSelf';

/** The call's side panels (one open at a time, docked beside the stage; a full sheet on a phone). */
export type PanelKey = 'host' | 'people' | 'polls' | 'questions' | 'chat' | 'settings';

/**
 * What the whole call shares, made once by CallView: the participant token and its API, who this
 * person is in our records (GET /me: null until read), the token's facts, and which panel is open.
 */
export interface CallContextValue {
  token: string;
  info: JoinToken;
  api: ParticipantApi;
  self: Self | null;
  /** GET /me/meeting: when the meeting started, recording and captions (null until read). */
  meeting: MeetingResponse | null;
  /** Reads the meeting again (after a host's action, or when recording or captions changed). */
  refreshMeeting: () => void;
  panel: PanelKey | null;
  /** Opens `key` (closing any other), or closes it when it is the open one. */
  togglePanel: (key: PanelKey) => void;
  /** Closes the open panel and puts focus back on the control that opened it. */
  closePanel: () => void;
  /** The control that opens a panel, for focus to return to. */
  registerToggle: (key: PanelKey, el: HTMLElement | null) => void;
}

export const CallContext = createContext<CallContextValue | null>(null);

export function useCall(): CallContextValue {
  const value = useContext(CallContext);
  if (!value) throw new Error('useCall outside the call');
  return value;
}
