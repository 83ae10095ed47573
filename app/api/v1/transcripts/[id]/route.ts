import { route, auth } from '@/lib/http/route';
import { transcriptDocument } from '@/lib/domain/transcript-reads';
import { formatFromAccept } from '@/lib/domain/transcripts-formats';
import { transcriptQuery, transcriptResponse } from '@/lib/domain/transcripts.schemas';

export const GET = route(
  {
    tag: 'Recordings',
    summary: 'Get a transcript: JSON, WebVTT, SRT or text (?format= or Accept)',
    auth: auth.tenant('media.read'),
    query: transcriptQuery,
    response: transcriptResponse,
    produces: ['text/vtt', 'application/x-subrip', 'text/plain'],
  },
  async ({ auth, params, query, req }) => {
    const found = await transcriptDocument(
      auth.tenant,
      params.id,
      query.format ?? formatFromAccept(req.headers.get('accept')),
    );
    if (found.kind === 'json') return found.view;
    const { body, contentType, filename } = found.document;
    return new Response(body, {
      headers: {
        'content-type': contentType,
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'private, no-store',
      },
    });
  },
);
