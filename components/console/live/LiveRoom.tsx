'use client';

import { useCallback, useEffect, useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import {
  liveAdmitAction,
  liveEndAction,
  liveLowerHandAction,
  liveMuteAction,
  liveRemoveAction,
} from '@/app/console/(app)/rooms/[id]/live/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { Badge } from '@/components/console/Badge';
import { Card } from '@/components/console/Card';
import { fmtTime } from '@/components/console/format';
import { ISSUE_LABELS, ScoreBadge } from '@/components/console/quality/score';
import { Empty, Table, td } from '@/components/console/Table';
import type { LivePerson, LiveRoomView } from '@/lib/domain/live-room';

/** How often the view asks for the room's state: a join, a mute or a leave shows within this and the media layer's delay. */
const POLL_MS = 2000;

const TRACK: Record<LivePerson['microphone'], { label: string; tone: 'green' | 'amber' | 'slate' }> = {
  on: { label: 'on', tone: 'green' },
  muted: { label: 'muted', tone: 'amber' },
  off: { label: 'off', tone: 'slate' },
};

/**
 * A room in progress, as the console sees it: polled every two seconds (lib/domain/live-room.ts
 * through /console/rooms/{id}/live/state). Owners and admins act from here with the tenant's
 * authority; a viewer sees the same, read-only.
 */
export function LiveRoom({ initial, canManage }: { initial: LiveRoomView; canManage: boolean }) {
  const [view, setView] = useState(initial);
  const [stale, setStale] = useState(false);
  const refresh = useCallback(async () => {
    try {
      const res = await fetch(`/console/rooms/${initial.roomId}/live/state`, { cache: 'no-store' });
      if (!res.ok) throw new Error(String(res.status));
      setView((await res.json()) as LiveRoomView);
      setStale(false);
    } catch {
      setStale(true);
    }
  }, [initial.roomId]);
  useEffect(() => {
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  const act = <T,>(run: () => Promise<ActionResult<T>>) => run;
  const readOnly = { disabled: !canManage, disabledReason: 'Viewers can watch but not act' };
  const live = view.status !== 'ENDED';
  return (
    <div data-testid="live-room" data-updated={view.at}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          Updated {fmtTime(view.at)}
          {stale && (
            <span className="ml-2">
              <Badge tone="amber">could not refresh</Badge>
            </span>
          )}
          {!view.mediaReachable && live && (
            <span className="ml-2">
              <Badge tone="amber">media layer not answering: track states unknown</Badge>
            </span>
          )}
        </p>
        {live && (
          <ActionButton
            action={act(() => liveEndAction(view.roomId))}
            label="End meeting for everyone"
            tone="danger"
            confirm="End the meeting for everyone?"
            success="Meeting ended"
            onDone={() => void refresh()}
            {...readOnly}
          />
        )}
      </div>
      <div className="mb-6 grid gap-4 md:grid-cols-4">
        <Card title="Room">
          <Badge tone={view.status === 'ACTIVE' ? 'green' : view.status === 'ENDED' ? 'slate' : 'amber'}>
            {view.status === 'ACTIVE' ? 'live' : view.status.toLowerCase()}
          </Badge>
          {view.isLocked && (
            <span className="ml-2">
              <Badge>locked</Badge>
            </span>
          )}
        </Card>
        <Card title="Recording">
          {view.recording ? <Badge tone="red">{`recording · ${view.recording.status.toLowerCase()}`}</Badge> : 'Off'}
        </Card>
        <Card title="Live stream">
          {view.stream ? <Badge tone="red">{`streaming · ${view.stream.status.toLowerCase()}`}</Badge> : 'Off'}
        </Card>
        <Card title="Captions">
          {view.captions ? <Badge tone="green">{`on · ${view.captions.language}`}</Badge> : 'Off'}
        </Card>
      </div>

      <h2 className="mb-2 text-lg font-semibold">In the room now ({view.people.length})</h2>
      {view.people.length ? (
        <Table
          caption="In the room now"
          head={['Name', 'Role', 'Microphone', 'Camera', 'Screen', 'Hand', 'Connection', 'Actions']}
        >
          {view.people.map((p) => (
            <tr key={p.participantId} data-testid="live-person" data-name={p.displayName}>
              <td className={td} data-label="Name">
                {p.displayName}
                {p.state === 'joining' && (
                  <span className="ml-2">
                    <Badge tone="amber">joining</Badge>
                  </span>
                )}
                {p.inBreakout && (
                  <span className="ml-2">
                    <Badge>in a breakout</Badge>
                  </span>
                )}
                <div className="font-mono text-xs text-slate-500">{p.externalUserId}</div>
              </td>
              <td className={td} data-label="Role">
                {p.role.toLowerCase()}
              </td>
              <td className={td} data-label="Microphone" data-testid="live-microphone">
                <Badge tone={TRACK[p.microphone].tone}>{TRACK[p.microphone].label}</Badge>
              </td>
              <td className={td} data-label="Camera" data-testid="live-camera">
                <Badge tone={TRACK[p.camera].tone}>{TRACK[p.camera].label}</Badge>
              </td>
              <td className={td} data-label="Screen">
                {p.screenShare ? <Badge tone="green">sharing</Badge> : '—'}
              </td>
              <td className={td} data-label="Hand" data-testid="live-hand">
                {p.handRaisedAt ? <Badge tone="amber">✋ raised</Badge> : '—'}
              </td>
              <td className={td} data-label="Connection" data-testid="live-quality">
                {p.quality ? (
                  <>
                    <ScoreBadge score={p.quality.score} />
                    <div className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                      {p.quality.rttMs !== null && `${Math.round(p.quality.rttMs)} ms`}
                      {p.quality.lossPct !== null && ` · ${p.quality.lossPct}% lost`}
                      {p.quality.issues.length > 0 && ` · ${p.quality.issues.map((i) => ISSUE_LABELS[i]).join(', ')}`}
                    </div>
                  </>
                ) : (
                  <span className="text-xs text-slate-500">no report yet</span>
                )}
              </td>
              <td className={td} data-label="Actions">
                <div className="flex flex-wrap gap-2">
                  {p.microphone === 'on' && (
                    <ActionButton
                      action={act(() => liveMuteAction(view.roomId, p.participantId, 'microphone'))}
                      label={`Mute ${p.displayName}`}
                      success={`${p.displayName} was muted`}
                      onDone={() => void refresh()}
                      {...readOnly}
                    />
                  )}
                  {p.camera === 'on' && (
                    <ActionButton
                      action={act(() => liveMuteAction(view.roomId, p.participantId, 'camera'))}
                      label={`Stop ${p.displayName}’s video`}
                      success={`${p.displayName}’s video was stopped`}
                      onDone={() => void refresh()}
                      {...readOnly}
                    />
                  )}
                  {p.handRaisedAt && (
                    <ActionButton
                      action={act(() => liveLowerHandAction(view.roomId, p.participantId))}
                      label={`Lower ${p.displayName}’s hand`}
                      success={`${p.displayName}’s hand was lowered`}
                      onDone={() => void refresh()}
                      {...readOnly}
                    />
                  )}
                  <ActionButton
                    action={act(() => liveRemoveAction(view.roomId, p.participantId))}
                    label={`Remove ${p.displayName}`}
                    tone="danger"
                    confirm={`Remove ${p.displayName} from the meeting?`}
                    success={`${p.displayName} was removed`}
                    onDone={() => void refresh()}
                    {...readOnly}
                  />
                </div>
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>Nobody is in the room now.</Empty>
      )}

      <h2 className="mb-2 mt-8 text-lg font-semibold">Waiting to join ({view.waiting.length})</h2>
      {view.waiting.length ? (
        <>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
            {view.decidesAs
              ? `Admitted or refused in the name of ${view.decidesAs}, the room’s host.`
              : 'Nobody in this room is a host or moderator, so nobody can be admitted from here.'}
          </p>
          <Table caption="Waiting to join" head={['Name', 'Waiting since', 'Actions']}>
            {view.waiting.map((w) => (
              <tr key={w.participantId} data-testid="live-waiting" data-name={w.displayName}>
                <td className={td}>{w.displayName}</td>
                <td className={`${td} tabular-nums`}>{fmtTime(w.since)}</td>
                <td className={td}>
                  <div className="flex flex-wrap gap-2">
                    <ActionButton
                      action={act(() => liveAdmitAction(view.roomId, w.participantId, true))}
                      label={`Admit ${w.displayName}`}
                      tone="primary"
                      success={`${w.displayName} was admitted`}
                      onDone={() => void refresh()}
                      {...readOnly}
                      disabled={!canManage || !view.decidesAs}
                    />
                    <ActionButton
                      action={act(() => liveAdmitAction(view.roomId, w.participantId, false))}
                      label={`Deny ${w.displayName}`}
                      success={`${w.displayName} was refused`}
                      onDone={() => void refresh()}
                      {...readOnly}
                      disabled={!canManage || !view.decidesAs}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        </>
      ) : (
        <Empty>Nobody is waiting.</Empty>
      )}
    </div>
  );
}
