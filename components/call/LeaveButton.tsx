'use client';

import { useState } from 'react';
import { LeaveIcon, useRoomContext } from '@livekit/components-react';
import { useCall } from '@/components/call/call-context';
import { ModalDialog } from '@/components/call/ModalDialog';
import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';

/**
 * Leave, at the end of the control bar. An attendee leaves at once; a host or moderator is asked,
 * as Daily asks: leave (the meeting goes on) or end the meeting for everyone — which is confirmed
 * once more in the same dialog, then ends the room through POST /api/v1/me/end (everyone, this
 * host too, is disconnected by the media layer and sees the meeting-ended screen).
 */
export function LeaveButton({ label }: { label: React.ReactNode }) {
  const t = useT();
  const room = useRoomContext();
  const { api, self } = useCall();
  const [step, setStep] = useState<'closed' | 'choose' | 'confirm-end'>('closed');
  const [error, setError] = useState<string | null>(null);
  const leave = () => void room.disconnect();
  return (
    <>
      <button
        type="button"
        className="lk-disconnect-button lk-button"
        aria-label={t.controls.leave}
        onClick={() => (self?.isModerator ? setStep('choose') : leave())}
      >
        <LeaveIcon />
        {label}
      </button>
      <ModalDialog
        open={step !== 'closed'}
        title={step === 'confirm-end' ? t.hostActions.confirmEnd : t.leave.title}
        onClose={() => setStep('closed')}
      >
        <p className="mt-2 text-slate-300">{step === 'confirm-end' ? t.hostActions.confirmEndBody : t.leave.body}</p>
        {error && (
          <p role="alert" className="mt-2 text-red-200">
            {error}
          </p>
        )}
        {step === 'choose' ? (
          <div className="mt-4 flex flex-col gap-2">
            <button
              type="button"
              autoFocus
              onClick={leave}
              className={`rounded bg-slate-700 px-3 py-2 font-medium ${focusRing}`}
            >
              {t.leave.leave}
            </button>
            <button
              type="button"
              onClick={() => setStep('confirm-end')}
              className={`rounded bg-red-700 px-3 py-2 font-medium ${focusRing}`}
            >
              {t.hostActions.endForAll}
            </button>
            <button
              type="button"
              onClick={() => setStep('closed')}
              className={`rounded px-3 py-2 hover:bg-slate-800 ${focusRing}`}
            >
              {t.hostActions.cancel}
            </button>
          </div>
        ) : (
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <button
              type="button"
              autoFocus
              onClick={() => setStep('choose')}
              className={`rounded bg-slate-700 px-3 py-1.5 ${focusRing}`}
            >
              {t.hostActions.cancel}
            </button>
            <button
              type="button"
              onClick={() =>
                api('POST', '/me/end').then(
                  () => {
                    setError(null);
                    setStep('closed');
                  },
                  (err: Error) => setError(err.message),
                )
              }
              className={`rounded bg-red-700 px-3 py-1.5 font-medium ${focusRing}`}
            >
              {t.hostActions.end}
            </button>
          </div>
        )}
      </ModalDialog>
    </>
  );
}
