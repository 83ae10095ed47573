'use client';

import { useState } from 'react';
import type { ParticipantApi } from '@/components/call/participant-api';
import { ConfirmDialog } from '@/components/call/ConfirmDialog';
import { useT } from '@/components/call/useT';

/**
 * "End meeting for everyone", beside Leave for hosts and moderators: after a confirmation the room
 * ends through POST /api/v1/me/end, and everyone (this host too) is disconnected by the media layer
 * and sees the meeting-ended screen. A failure is said in the dialog's place, as an alert.
 */
export function EndMeetingButton({ api }: { api: ParticipantApi }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="lk-button convene-end-meeting"
        style={{ background: '#b91c1c', color: '#fff' }}
        onClick={() => setConfirming(true)}
      >
        {t.hostActions.endForAll}
      </button>
      {error && (
        <span role="alert" className="sr-only">
          {error}
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        title={t.hostActions.confirmEnd}
        body={t.hostActions.confirmEndBody}
        confirmLabel={t.hostActions.end}
        onConfirm={() =>
          api('POST', '/me/end').then(
            () => setError(null),
            (err: Error) => setError(err.message),
          )
        }
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
