'use client';

import { useState } from 'react';
import { useCall } from '@/components/call/call-context';
import type { MeetingResponse } from '@/components/call/participant-api';
import { Icon, type IconName } from '@/components/call/icons';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';

type Tool = 'recording' | 'captions';

/**
 * In the host controls: start and stop recording (a transcript follows where the room's AI
 * features make one) and live captions, through POST /api/v1/me/recording and /me/captions — the
 * tenant API's own starts, so the room's switches, test mode and the plan decide as there. What
 * the room's switches turn off is not offered; what the plan or the installation refuses is shown
 * disabled with the reason (GET /me/meeting says which before anyone presses).
 */
export function MeetingTools() {
  const t = useT();
  const { meeting, api, refreshMeeting } = useCall();
  const [busy, setBusy] = useState<Tool | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!meeting) return null;
  const tools: {
    key: Tool;
    icon: IconName;
    state: MeetingResponse['recording'];
    start: string;
    stop: string;
    note?: string;
  }[] = [
    {
      key: 'recording',
      icon: 'record',
      state: meeting.recording,
      start: t.tools.startRecording,
      stop: t.tools.stopRecording,
      note: meeting.transcribesRecordings ? t.tools.transcriptFollows : undefined,
    },
    {
      key: 'captions',
      icon: 'captions',
      state: meeting.captions,
      start: t.tools.startCaptions,
      stop: t.tools.stopCaptions,
    },
  ];
  const shown = tools.filter((tool) => tool.state.active || tool.state.blockedBy !== 'FEATURE_DISABLED');
  if (shown.length === 0) return null;

  const press = async (key: Tool, active: boolean) => {
    setBusy(key);
    try {
      if (key === 'recording') await api('POST', '/me/recording', { active });
      else await api('POST', '/me/captions', { active, language: t.code });
      setNotice(
        key === 'recording'
          ? active
            ? t.tools.recordingStarted
            : t.tools.recordingStopped
          : active
            ? t.tools.captionsStarted
            : t.tools.captionsStopped,
      );
    } catch (err) {
      setNotice((err as Error).message);
    } finally {
      setBusy(null);
      refreshMeeting();
    }
  };

  return (
    <div className="mt-4 border-t border-slate-700 pt-3" data-testid="meeting-tools">
      <h3 className="mb-2 font-semibold">{t.tools.title}</h3>
      <ul className="space-y-2">
        {shown.map(({ key, icon, state, start, stop, note }) => {
          const blocked = !state.active && state.blockedBy !== null;
          return (
            <li key={key}>
              <button
                type="button"
                aria-pressed={state.active}
                disabled={blocked || busy !== null}
                onClick={() => void press(key, !state.active)}
                className={`flex items-center gap-2 rounded px-3 py-1.5 font-medium disabled:opacity-60 ${state.active ? 'bg-red-700 hover:bg-red-600' : 'bg-slate-700 hover:bg-slate-600'} ${focusRing}`}
              >
                <Icon name={state.active && key === 'recording' ? 'stop' : icon} size={18} />
                {state.active ? stop : start}
              </button>
              {blocked && state.blockedBy && (
                <p className="mt-1 text-xs text-amber-200">{t.tools.blocked[state.blockedBy]}</p>
              )}
              {!blocked && note && <p className="mt-1 text-xs text-slate-300">{note}</p>}
            </li>
          );
        })}
      </ul>
      <p role="status" className="mt-2 min-h-5 text-slate-300">
        {notice}
      </p>
    </div>
  );
}
