import type { z } from 'zod';
import { getServerSession } from 'next-auth';
import { notFound as nextNotFound, redirect } from 'next/navigation';
import { authOptions } from '@/lib/console/auth';
import { consoleActor, type ConsoleActor } from '@/lib/domain/console';
import { ApiError } from '@/lib/errors';

/** The signed-in console user, or null. */
export async function signedInActor(): Promise<ConsoleActor | null> {
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  return userId ? consoleActor(userId) : null;
}

/** The signed-in console user, or a redirect to sign-in. Every console page and action starts here. */
export async function requireActor(): Promise<ConsoleActor> {
  const actor = await signedInActor();
  if (!actor) redirect('/console/sign-in');
  return actor;
}

export async function requireTenantActor(): Promise<Extract<ConsoleActor, { kind: 'tenant' }>> {
  const actor = await requireActor();
  if (actor.kind !== 'tenant') redirect('/console');
  return actor;
}

export async function requireProviderActor(): Promise<Extract<ConsoleActor, { kind: 'provider' }>> {
  const actor = await requireActor();
  if (actor.kind !== 'provider') redirect('/console');
  return actor;
}

/** Runs a page loader; a domain 404 (another tenant's id, say) renders Next's not-found page. */
export async function orNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) nextNotFound();
    throw err;
  }
}

/** A list page's query string through the API's own schema; invalid filters are dropped, not fatal. */
export function listQuery<S extends z.ZodObject>(
  schema: S,
  params: Record<string, string | string[] | undefined>,
): z.infer<S> {
  const flat = Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === 'string'));
  const parsed = schema.safeParse(flat);
  return parsed.success ? parsed.data : schema.parse({});
}
