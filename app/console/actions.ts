'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireActor } from '@/lib/console/session';
import { assertCanManage, ownedTenantOf, providerOf, tenantOf } from '@/lib/domain/console';
import { createTenantApiKey, revokeApiKey, rotateApiKey } from '@/lib/domain/keys';
import { replayDelivery, rotateWebhookSecret, sendTestEvent, updateWebhookSettings } from '@/lib/domain/webhooks';
import { deleteRecording } from '@/lib/domain/recordings';
import { endRoom } from '@/lib/domain/room-end';
import { provisionOwnedTenant, updateOwnedTenant } from '@/lib/domain/providers';
import { createKeyInput, rotateKeyInput } from '@/lib/domain/keys.schemas';
import { provisionTenantInput, updateTenantInput } from '@/lib/domain/tenants.schemas';
import { secretRotationInput, webhookSettingsInput } from '@/lib/domain/webhooks.schemas';
import { updateTenantBranding } from '@/lib/domain/branding';
import { brandingInput } from '@/lib/domain/branding.schemas';
import { ApiError, zodToApiError } from '@/lib/errors';
import { parseActionId, parseActionInput } from '@/lib/console/action-input';
import { log } from '@/lib/log';

/**
 * The console's mutations. Each one: who is signed in, may they change things, validate with the
 * API's own schema, call the API's own domain function. A refusal comes back as a message for a
 * toast, never as a thrown error page.
 */
export type ActionResult<T = undefined> = { ok: true; data: T } | { ok: false; code: string; message: string };

async function act<T>(path: string, run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    const data = await run();
    revalidatePath(path);
    return { ok: true, data };
  } catch (err) {
    const refusal = err instanceof z.ZodError ? zodToApiError(err, 'input') : err;
    if (refusal instanceof ApiError) return { ok: false, code: refusal.code, message: refusal.message };
    if (err && typeof err === 'object' && 'digest' in err) throw err; // Next's redirect / notFound
    log.error({ err }, 'console action failed');
    return { ok: false, code: 'INTERNAL', message: 'Something went wrong on our side. Try again.' };
  }
}

async function manager() {
  const actor = await requireActor();
  assertCanManage(actor);
  return actor;
}

// ---- tenant console ----

export async function createKeyAction(input: unknown) {
  return act('/console/keys', async () =>
    createTenantApiKey(tenantOf(await manager()), parseActionInput(createKeyInput, input)),
  );
}

export async function rotateKeyAction(keyId: string, input: unknown) {
  return act('/console/keys', async () => {
    const { plainTextKey, previousKey } = await rotateApiKey({
      tenant: tenantOf(await manager()),
      keyId: parseActionId(keyId),
      gracePeriodSeconds: parseActionInput(rotateKeyInput, input).gracePeriodSeconds,
    });
    return { plainTextKey, previousExpiresAt: previousKey.expiresAt };
  });
}

export async function revokeKeyAction(keyId: string) {
  return act('/console/keys', async () => {
    await revokeApiKey(tenantOf(await manager()).id, parseActionId(keyId));
  });
}

export async function saveWebhookAction(input: unknown) {
  return act('/console/webhooks', async () => {
    await updateWebhookSettings(tenantOf(await manager()), parseActionInput(webhookSettingsInput, input));
  });
}

export async function saveBrandingAction(input: unknown) {
  return act('/console/branding', async () => {
    await updateTenantBranding(tenantOf(await manager()), parseActionInput(brandingInput, input));
  });
}

export async function rotateWebhookSecretAction(input: unknown) {
  return act('/console/webhooks', async () =>
    rotateWebhookSecret(tenantOf(await manager()).id, parseActionInput(secretRotationInput, input).overlapSeconds),
  );
}

export async function sendTestEventAction() {
  return act('/console/webhooks', async () => sendTestEvent(tenantOf(await manager()), 'webhook.test'));
}

export async function replayDeliveryAction(deliveryId: string) {
  return act('/console/webhooks', async () => {
    const replay = await replayDelivery(tenantOf(await manager()), parseActionId(deliveryId));
    return { id: replay.id };
  });
}

export async function deleteRecordingAction(recordingId: string) {
  return act('/console/recordings', async () => {
    await deleteRecording(tenantOf(await manager()), parseActionId(recordingId));
  });
}

export async function endRoomAction(roomId: string) {
  return act('/console/rooms', async () => {
    await endRoom(tenantOf(await manager()), parseActionId(roomId));
  });
}

// ---- reseller console ----

async function providerManager() {
  return providerOf(await manager());
}

export async function provisionTenantAction(input: unknown) {
  return act('/console/tenants', async () => {
    const actor = await providerManager();
    const created = await provisionOwnedTenant({ id: actor.providerId }, parseActionInput(provisionTenantInput, input));
    return {
      tenantId: created.tenant.id,
      plainTextKey: created.apiKey.plainTextKey,
      webhookSecret: created.webhookSecret,
    };
  });
}

export async function updateTenantAction(tenantId: string, input: unknown) {
  return act('/console/tenants', async () => {
    const actor = await providerManager();
    const tenant = await ownedTenantOf(actor, parseActionId(tenantId));
    await updateOwnedTenant({ id: actor.providerId }, tenant.id, parseActionInput(updateTenantInput, input));
  });
}

/** A reseller sets one of its tenants' call UI branding (the tenant update's `branding`). */
export async function saveTenantBrandingAction(tenantId: string, input: unknown) {
  return updateTenantAction(tenantId, { branding: input });
}

export async function rotateTenantKeyAction(tenantId: string, keyId: string, input: unknown) {
  return act('/console/tenants', async () => {
    const tenant = await ownedTenantOf(await providerManager(), parseActionId(tenantId));
    const { plainTextKey, previousKey } = await rotateApiKey({
      tenant,
      keyId: parseActionId(keyId),
      gracePeriodSeconds: parseActionInput(rotateKeyInput, input).gracePeriodSeconds,
    });
    return { plainTextKey, previousExpiresAt: previousKey.expiresAt };
  });
}

export async function rotateTenantWebhookSecretAction(tenantId: string, input: unknown) {
  return act('/console/tenants', async () => {
    const tenant = await ownedTenantOf(await providerManager(), parseActionId(tenantId));
    return rotateWebhookSecret(tenant.id, parseActionInput(secretRotationInput, input).overlapSeconds);
  });
}
