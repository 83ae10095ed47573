'use client';

import { useCallback } from 'react';
import type { ParticipantApi } from '@/components/call/participant-api';
import { useT } from '@/components/call/useT';

/** The API's error body, as lib/errors.ts writes it. */
type ErrorBody = { error?: { message?: string } } | null;

/** Calls /api/v1{path} with the participant's own token (never a tenant key); throws with the API's message. */
export function useParticipantApi(token: string): ParticipantApi {
  const t = useT();
  const call = useCallback(
    async (method: string, path: string, body?: unknown): Promise<unknown> => {
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json: unknown = await res.json().catch(() => null);
      if (!res.ok) throw new Error((json as ErrorBody)?.error?.message ?? t.host.failed);
      return json;
    },
    [token, t],
  );
  // The server's response schemas type the answer (participant-api.ts); this only moves JSON.
  return call as ParticipantApi;
}
