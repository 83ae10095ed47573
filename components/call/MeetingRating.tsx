'use client';

import { useState } from 'react';
import { focusRing } from '@/components/call/focus-ring';
import { Icon } from '@/components/call/icons';
import { useT } from '@/components/call/useT';

/**
 * After a meeting: "How was the meeting?" and five stars. A choice is sent at once
 * (POST /api/v1/me/rating with the participant's own token; a later choice replaces it) and
 * thanked for; nothing is asked twice.
 */
export function MeetingRating({ token }: { token: string }) {
  const t = useT();
  const [rating, setRating] = useState(0);
  const [hover, setHover] = useState(0);
  const [state, setState] = useState<'idle' | 'sent' | 'failed'>('idle');
  const rate = async (value: number) => {
    setRating(value);
    const res = await fetch('/api/v1/me/rating', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rating: value }),
    }).catch(() => null);
    setState(res?.ok ? 'sent' : 'failed');
  };
  const lit = hover || rating;
  return (
    <section aria-labelledby="convene-rating-title" className="flex flex-col items-center gap-2" data-testid="rating">
      <h2 id="convene-rating-title" className="text-lg font-semibold">
        {t.end.rateTitle}
      </h2>
      <div className="flex items-center gap-2">
        <span className="text-sm text-slate-300">{t.end.rateLow}</span>
        <div role="group" aria-labelledby="convene-rating-title" className="flex" onMouseLeave={() => setHover(0)}>
          {[1, 2, 3, 4, 5].map((n) => (
            <button
              key={n}
              type="button"
              aria-label={t.end.rate(n)}
              aria-pressed={rating === n}
              onMouseEnter={() => setHover(n)}
              onClick={() => void rate(n)}
              className={`rounded p-1 ${n <= lit ? 'text-amber-300' : 'text-slate-400'} ${focusRing}`}
            >
              <Icon name="star" size={32} filled={n <= lit} />
            </button>
          ))}
        </div>
        <span className="text-sm text-slate-300">{t.end.rateHigh}</span>
      </div>
      <p role="status" className="min-h-5 text-sm text-slate-200">
        {state === 'sent' ? t.end.thanks : state === 'failed' ? t.end.failed : ''}
      </p>
    </section>
  );
}
