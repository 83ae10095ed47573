import { sessionQualityCsv } from '@/lib/domain/quality-reads';
import { csvAttachment, tenantDownload } from '@/lib/console/download';

// The console's call-quality download: every stored sample of the session, the API's own rules.
export async function GET(_req: Request, { params }: { params: Promise<{ id: string; sessionId: string }> }) {
  return tenantDownload({
    what: 'download call quality',
    params,
    respond: async (tenant, { sessionId }) =>
      csvAttachment(await sessionQualityCsv(tenant, sessionId), `quality-${sessionId}.csv`),
  });
}
