'use client';

import { useState } from 'react';
import type { Participant } from 'livekit-client';
import type { ParticipantApi, RosterResponse } from '@/components/call/participant-api';
import { ConfirmDialog } from '@/components/call/ConfirmDialog';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';
import { Icon } from '@/components/call/icons';

const action = `whitespace-nowrap rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 ${focusRing}`;

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
  // What this host may do to this person now, in the order the panel lists it. Each button shows
  // the action alone (the person is the group's name); its accessible name adds the person.
  const h = t.hostActions;
  const actions: { key: string; label: string; call: () => Promise<unknown>; done: string }[] = [
    ...(p.isMicrophoneEnabled
      ? [
          {
            key: 'mute',
            label: h.short.mute,
            call: () => api('POST', `${path}/mute`, { source: 'microphone' }),
            done: h.muted(name),
          },
        ]
      : []),
    ...(p.isCameraEnabled
      ? [
          {
            key: 'stop-video',
            label: h.short.stopVideo,
            call: () => api('POST', `${path}/mute`, { source: 'camera' }),
            done: h.videoStopped(name),
          },
        ]
      : []),
    target.role === 'MODERATOR' || target.role === 'HOST'
      ? { key: 'attendee', label: h.short.makeAttendee, call: setRole('ATTENDEE'), done: h.roleChanged(name) }
      : { key: 'cohost', label: h.short.makeCohost, call: setRole('MODERATOR'), done: h.roleChanged(name) },
    ...(selfRole === 'HOST' && target.role !== 'HOST'
      ? [{ key: 'host', label: h.short.makeHost, call: setRole('HOST'), done: h.roleChanged(name) }]
      : []),
    ...roster.breakouts.map((b) => ({
      key: `move-${b.id}`,
      label: h.short.moveTo(b.name),
      call: () => api('POST', `${path}/move`, { breakoutId: b.id }),
      done: h.moved(name, b.name),
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
        className={`shrink-0 rounded p-1 hover:bg-slate-700 ${focusRing}`}
      >
        <Icon name="dots" size={18} />
        <span className="sr-only">{h.toggle(name)}</span>
      </button>
      <div
        id={panelId}
        role="group"
        aria-label={h.toggle(name)}
        hidden={!open}
        className="mt-1 flex basis-full flex-wrap gap-1 text-xs"
      >
        {actions.map(({ key, label, call, done }) => (
          <button
            key={key}
            type="button"
            aria-label={h.actionFor(label, name)}
            className={action}
            onClick={run(call, done)}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          aria-label={h.actionFor(h.short.remove, name)}
          className={`${action} text-red-200`}
          onClick={() => setConfirming(true)}
        >
          {h.short.remove}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={h.confirmRemove(name)}
        body={h.confirmRemoveBody}
        confirmLabel={h.remove(name)}
        onConfirm={run(() => api('POST', `${path}/remove`), h.removed(name))}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
