'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { ActionResult } from '@/app/console/actions';
import { requireActor } from '@/lib/console/session';
import { assertCanManage, tenantOf } from '@/lib/domain/console';
import {
  admitFromConsole,
  endFromConsole,
  lowerHandFromConsole,
  muteFromConsole,
  removeFromConsole,
} from '@/lib/domain/live-room';
import { parseActionId } from '@/lib/console/action-input';
import { ApiError, zodToApiError } from '@/lib/errors';
import { log } from '@/lib/log';

/**
 * The live room view's host actions: an owner or admin acting with the tenant's authority through
 * the same domain rules as the API and the call (lib/domain/live-room.ts); a viewer is refused.
 * A refusal comes back as a message for a toast.
 */
async function act<T>(
  roomId: unknown,
  run: (tenant: ReturnType<typeof tenantOf>, roomId: string) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    const actor = await requireActor();
    assertCanManage(actor);
    const id = parseActionId(roomId);
    const data = await run(tenantOf(actor), id);
    revalidatePath(`/console/rooms/${id}/live`);
    return { ok: true, data };
  } catch (err) {
    const refusal = err instanceof z.ZodError ? zodToApiError(err, 'input') : err;
    if (refusal instanceof ApiError) return { ok: false, code: refusal.code, message: refusal.message };
    if (err && typeof err === 'object' && 'digest' in err) throw err; // Next's redirect / notFound
    log.error({ err }, 'live view action failed');
    return { ok: false, code: 'INTERNAL', message: 'Something went wrong on our side. Try again.' };
  }
}

export async function liveMuteAction(roomId: string, participantId: string, source: unknown) {
  // The muted person is told who did it: the tenant, by its name (the console user stays private).
  return act(roomId, async (tenant, id) =>
    muteFromConsole(
      tenant,
      id,
      parseActionId(participantId),
      z.enum(['microphone', 'camera']).parse(source),
      tenant.name,
    ),
  );
}

export async function liveLowerHandAction(roomId: string, participantId: string) {
  return act(roomId, (tenant, id) => lowerHandFromConsole(tenant, id, parseActionId(participantId)));
}

export async function liveRemoveAction(roomId: string, participantId: string) {
  return act(roomId, async (tenant, id) => {
    await removeFromConsole(tenant, id, parseActionId(participantId));
  });
}

export async function liveAdmitAction(roomId: string, participantId: string, admit: unknown) {
  return act(roomId, async (tenant, id) => {
    await admitFromConsole(tenant, id, parseActionId(participantId), z.boolean().parse(admit));
  });
}

export async function liveEndAction(roomId: string) {
  return act(roomId, async (tenant, id) => {
    await endFromConsole(tenant, id);
  });
}
