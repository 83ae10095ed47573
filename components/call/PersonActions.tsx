'use client';

import { useState } from 'react';
import type { Participant } from 'livekit-client';
import type { ParticipantApi, RosterResponse } from '@/components/call/participant-api';
import { ConfirmDialog } from '@/components/call/ConfirmDialog';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';

const action = `rounded bg-slate-700 px-2 py-1 text-left hover:bg-slate-600 ${focusRing}`;

/**
 * A moderator's actions on one other person in the People panel: mute, stop video, change role
 * (co-host = MODERATOR; only a host makes a host), move to an open breakout, remove (after a
 * confirmation). All through the participant-token API, which checks the role in our records
 * again; what the media layer does then reaches everyone's call by itself (mute state, metadata,
 * disconnection), so nothing here changes the list directly.
 */
export function PersonActions({
  participant: p,
  name,
  roster,
  selfRole,
  api,
  onNotice,
  onOpen,
}: {
  participant: Participant;
  name: string;
  roster: RosterResponse;
  selfRole: string | null;
  api: ParticipantApi;
  onNotice: (text: string) => void;
  /** The actions were opened: a good time to re-read the roster. */
  onOpen: () => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const target = roster.participants.find((r) => r.mediaIdentity === p.identity);
  // Not in our roster (yet), or a host while we are not one: the server would refuse.
  if (!target || (target.role === 'HOST' && selfRole !== 'HOST')) return null;
  const path = `/me/participants/${target.id}` as const;
  const run = (fn: () => Promise<unknown>, done: string) => () =>
    fn().then(
      () => onNotice(done),
      (err: Error) => onNotice(err.message),
    );
  const panelId = `convene-person-actions-${target.id}`;
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          if (!open) onOpen();
          setOpen(!open);
        }}
        className={`shrink-0 rounded px-2 py-0.5 text-base leading-none hover:bg-slate-700 ${focusRing}`}
      >
        <span aria-hidden="true">⋯</span>
        <span className="sr-only">{t.hostActions.toggle(name)}</span>
      </button>
      <div id={panelId} hidden={!open} className="mt-1 flex basis-full flex-col gap-1 text-xs">
        {p.isMicrophoneEnabled && (
          <button
            type="button"
            className={action}
            onClick={run(() => api('POST', `${path}/mute`, { source: 'microphone' }), t.hostActions.muted(name))}
          >
            {t.hostActions.mute(name)}
          </button>
        )}
        {p.isCameraEnabled && (
          <button
            type="button"
            className={action}
            onClick={run(() => api('POST', `${path}/mute`, { source: 'camera' }), t.hostActions.videoStopped(name))}
          >
            {t.hostActions.stopVideo(name)}
          </button>
        )}
        {target.role === 'MODERATOR' || target.role === 'HOST' ? (
          <button
            type="button"
            className={action}
            onClick={run(() => api('POST', `${path}/role`, { role: 'ATTENDEE' }), t.hostActions.roleChanged(name))}
          >
            {t.hostActions.makeAttendee(name)}
          </button>
        ) : (
          <button
            type="button"
            className={action}
            onClick={run(() => api('POST', `${path}/role`, { role: 'MODERATOR' }), t.hostActions.roleChanged(name))}
          >
            {t.hostActions.makeCohost(name)}
          </button>
        )}
        {selfRole === 'HOST' && target.role !== 'HOST' && (
          <button
            type="button"
            className={action}
            onClick={run(() => api('POST', `${path}/role`, { role: 'HOST' }), t.hostActions.roleChanged(name))}
          >
            {t.hostActions.makeHost(name)}
          </button>
        )}
        {roster.breakouts.map((b) => (
          <button
            key={b.id}
            type="button"
            className={action}
            onClick={run(() => api('POST', `${path}/move`, { breakoutId: b.id }), t.hostActions.moved(name, b.name))}
          >
            {t.hostActions.moveTo(name, b.name)}
          </button>
        ))}
        <button type="button" className={`${action} text-red-200`} onClick={() => setConfirming(true)}>
          {t.hostActions.remove(name)}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t.hostActions.confirmRemove(name)}
        body={t.hostActions.confirmRemoveBody}
        confirmLabel={t.hostActions.remove(name)}
        onConfirm={run(() => api('POST', `${path}/remove`), t.hostActions.removed(name))}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
