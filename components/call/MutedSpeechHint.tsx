'use client';

import { useCallback, useEffect } from 'react';
import { toast } from '@/components/call/toasts';
import { useLocalParticipant } from '@livekit/components-react';
import { useSpeakingWhileMuted } from '@/components/call/useSpeakingWhileMuted';
import { useT } from '@/components/call/useT';

const HINT_ID = 'convene-muted-speech';

/** "You are muted" with an Unmute button, as a toast (HostNotices' toaster), when someone speaks while muted; gone on unmute. */
export function MutedSpeechHint() {
  const t = useT();
  const { localParticipant, isMicrophoneEnabled } = useLocalParticipant();
  const show = useCallback(() => {
    toast(t.mutedHint.text, {
      id: HINT_ID,
      duration: 5000,
      action: { label: t.mutedHint.unmute, onClick: () => void localParticipant.setMicrophoneEnabled(true) },
    });
  }, [t, localParticipant]);
  useSpeakingWhileMuted(show);
  useEffect(() => {
    if (isMicrophoneEnabled) toast.dismiss(HINT_ID);
  }, [isMicrophoneEnabled]);
  return null;
}
