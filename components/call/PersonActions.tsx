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
  const setRole = (role: 'ATTENDEE' | 'MODERATOR' | 'HOST') => () => api('POST', `${path}/role`, { role });
  // What this host may do to this person now, in the order the panel lists it.
  const actions: { key: string; label: string; call: () => Promise<unknown>; done: string }[] = [
    ...(p.isMicrophoneEnabled
      ? [
          {
            key: 'mute',
            label: t.hostActions.mute(name),
            call: () => api('POST', `${path}/mute`, { source: 'microphone' }),
            done: t.hostActions.muted(name),
          },
        ]
      : []),
    ...(p.isCameraEnabled
      ? [
          {
            key: 'stop-video',
            label: t.hostActions.stopVideo(name),
            call: () => api('POST', `${path}/mute`, { source: 'camera' }),
            done: t.hostActions.videoStopped(name),
          },
        ]
      : []),
    target.role === 'MODERATOR' || target.role === 'HOST'
      ? {
          key: 'attendee',
          label: t.hostActions.makeAttendee(name),
          call: setRole('ATTENDEE'),
          done: t.hostActions.roleChanged(name),
        }
      : {
          key: 'cohost',
          label: t.hostActions.makeCohost(name),
          call: setRole('MODERATOR'),
          done: t.hostActions.roleChanged(name),
        },
    ...(selfRole === 'HOST' && target.role !== 'HOST'
      ? [
          {
            key: 'host',
            label: t.hostActions.makeHost(name),
            call: setRole('HOST'),
            done: t.hostActions.roleChanged(name),
          },
        ]
      : []),
    ...roster.breakouts.map((b) => ({
      key: `move-${b.id}`,
      label: t.hostActions.moveTo(name, b.name),
      call: () => api('POST', `${path}/move`, { breakoutId: b.id }),
      done: t.hostActions.moved(name, b.name),
    })),
  ];
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
        {actions.map(({ key, label, call, done }) => (
          <button key={key} type="button" className={action} onClick={run(call, done)}>
            {label}
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
