'use client';

import { useIsSpeaking, useParticipants } from '@livekit/components-react';
import type { Participant } from 'livekit-client';
import { factsFromMetadata } from '@/lib/domain/join-token';
import { useT } from '@/components/call/useT';

interface Self {
  name: string;
  role: string | null;
}

/**
 * Everyone in the call — you first, then by name — with their role from the metadata claim and,
 * in words, whether they are speaking and their microphone and camera are on. Until the call
 * connects, "you" are known only from your token.
 */
export function PeoplePanel({ self }: { self: Self }) {
  const people = useParticipants();
  const sorted = [...people].sort(
    (a, b) => Number(b.isLocal) - Number(a.isLocal) || nameOf(a, self).localeCompare(nameOf(b, self)),
  );
  return (
    <ul className="space-y-1">
      {sorted.map((p) => (
        <Person key={p.isLocal ? 'local' : p.identity} participant={p} self={self} />
      ))}
    </ul>
  );
}

function nameOf(p: Participant, self: Self): string {
  return p.name || (p.isLocal ? self.name : p.identity);
}

function Person({ participant: p, self }: { participant: Participant; self: Self }) {
  const t = useT();
  const speaking = useIsSpeaking(p);
  const role = (p.isLocal && !p.metadata ? self.role : factsFromMetadata(p.metadata).role) ?? '';
  const badge = t.people.roles[role as keyof typeof t.people.roles];
  const state = [
    speaking ? t.people.speaking : null,
    p.isMicrophoneEnabled ? t.people.micOn : t.people.micOff,
    p.isCameraEnabled ? t.people.camOn : t.people.camOff,
  ];
  return (
    <li className="rounded px-2 py-1.5 odd:bg-slate-800/60">
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium">{nameOf(p, self)}</span>
        {p.isLocal && <span className="shrink-0 text-slate-300">({t.people.you})</span>}
        {badge && <span className="shrink-0 rounded bg-slate-700 px-1.5 py-0.5 text-xs">{badge}</span>}
      </div>
      <div className={`text-xs ${speaking ? 'text-emerald-300' : 'text-slate-300'}`}>
        {state.filter(Boolean).join(' · ')}
      </div>
    </li>
  );
}
