'use client';

import { useState } from 'react';
import { useIsSpeaking, useParticipants } from '@livekit/components-react';
import type { Participant } from 'livekit-client';
import { factsFromMetadata } from '@/lib/domain/join-token';
import { useT } from '@/components/call/useT';
import type { ParticipantApi, RosterResponse } from '@/components/call/participant-api';
import { useCallRoster } from '@/components/call/useCallRoster';
import { PersonActions } from '@/components/call/PersonActions';
import { HandQueue } from '@/components/call/HandQueue';
import { HAND_ATTRIBUTE } from '@/lib/hand-attribute';

interface Self {
  name: string;
  role: string | null;
}

/**
 * Everyone in the call — you first, then by name — with their role from the metadata claim and,
 * in words, whether they are speaking and their microphone and camera are on. Until the call
 * connects, "you" are known only from your token. Moderators (per GET /api/v1/me) get each other
 * person's actions (PersonActions).
 */
export function PeoplePanel({
  self,
  api,
  moderator = false,
}: {
  self: Self;
  api: ParticipantApi;
  moderator?: boolean;
}) {
  const people = useParticipants();
  const { roster, refresh } = useCallRoster(api, moderator);
  const [notice, setNotice] = useState<string | null>(null);
  const sorted = [...people].sort(
    (a, b) => Number(b.isLocal) - Number(a.isLocal) || nameOf(a, self).localeCompare(nameOf(b, self)),
  );
  const local = people.find((p) => p.isLocal);
  const selfRole = (local?.metadata ? factsFromMetadata(local.metadata).role : self.role) ?? null;
  const actions = roster ? { roster, selfRole, api, onNotice: setNotice, onOpen: refresh } : null;
  return (
    <>
      {moderator && <HandQueue roster={roster} api={api} onNotice={setNotice} />}
      <ul className="space-y-1">
        {sorted.map((p) => (
          <Person key={p.isLocal ? 'local' : p.identity} participant={p} self={self} actions={actions} />
        ))}
      </ul>
      {moderator && (
        <p role="status" className="mt-2 min-h-5 text-slate-300">
          {notice}
        </p>
      )}
    </>
  );
}

type Actions = {
  roster: RosterResponse;
  selfRole: string | null;
  api: ParticipantApi;
  onNotice: (t: string) => void;
  onOpen: () => void;
};

function nameOf(p: Participant, self: Self): string {
  return p.name || (p.isLocal ? self.name : p.identity);
}

function Person({ participant: p, self, actions }: { participant: Participant; self: Self; actions: Actions | null }) {
  const t = useT();
  const speaking = useIsSpeaking(p);
  const role = (p.isLocal && !p.metadata ? self.role : factsFromMetadata(p.metadata).role) ?? '';
  const badge = t.people.roles[role as keyof typeof t.people.roles];
  const state = [
    p.attributes[HAND_ATTRIBUTE] ? t.hands.raisedBadge : null,
    speaking ? t.people.speaking : null,
    p.isMicrophoneEnabled ? t.people.micOn : t.people.micOff,
    p.isCameraEnabled ? t.people.camOn : t.people.camOff,
  ];
  return (
    <li className="rounded px-2 py-1.5 odd:bg-slate-800/60">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium [overflow-wrap:break-word]">{nameOf(p, self)}</span>
        {p.isLocal && <span className="shrink-0 text-slate-300">({t.people.you})</span>}
        {badge && <span className="shrink-0 rounded bg-slate-700 px-1.5 py-0.5 text-xs">{badge}</span>}
        {actions && !p.isLocal && <span className="ml-auto" />}
        {actions && !p.isLocal && <PersonActions participant={p} name={nameOf(p, self)} {...actions} />}
      </div>
      <div className={`text-xs ${speaking ? 'text-emerald-300' : 'text-slate-300'}`}>
        {state.filter(Boolean).join(' · ')}
      </div>
    </li>
  );
}
