import { getServerSession } from 'next-auth';
import { authOptions } from '@/lib/console/auth';
import { consoleActor, tenantOf } from '@/lib/domain/console';
import { recordingFile } from '@/lib/domain/recordings';
import { attachmentResponse } from '@/lib/http/download';
import { ApiError } from '@/lib/errors';

// The console's download link: the signed-in user's tenant, the API's own download rules.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const session = await getServerSession(authOptions);
  const actor = await consoleActor((session?.user as { id?: string } | undefined)?.id ?? '');
  if (!actor) return new Response('Sign in to download recordings.', { status: 401 });
  try {
    return attachmentResponse(await recordingFile(tenantOf(actor), (await params).id));
  } catch (err) {
    if (err instanceof ApiError) return new Response(err.message, { status: err.status });
    throw err;
  }
}
