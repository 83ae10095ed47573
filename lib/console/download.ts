import type { Tenant } from '@/lib/generated/prisma/client';
import { signedInActor } from '@/lib/console/session';
import { tenantOf } from '@/lib/domain/console';
import { ApiError } from '@/lib/errors';
import { assertPathIds } from '@/lib/http/body';

/**
 * A console download link: the signed-in user's tenant, the API's own rules. A link has no page
 * to redirect from, so not signed in is a plain 401 ("Sign in to <what>.") and a refusal is its
 * status with the message. The path's ids are checked as the API's route wrapper checks them: one
 * that cannot be ours (a NUL, say) is not found, as an unknown one is — never a database error.
 */
export async function tenantDownload<Ids extends Record<string, string>>({
  what,
  params,
  respond,
}: {
  what: string;
  params: Promise<Ids>;
  respond: (tenant: Tenant, ids: Ids) => Promise<Response>;
}): Promise<Response> {
  const actor = await signedInActor();
  if (!actor) return new Response(`Sign in to ${what}.`, { status: 401 });
  try {
    const ids = await params;
    assertPathIds(ids);
    return await respond(tenantOf(actor), ids);
  } catch (err) {
    if (err instanceof ApiError) return new Response(err.message, { status: err.status });
    throw err;
  }
}

export function csvAttachment(csv: string, filename: string): Response {
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
    },
  });
}
