import { route, auth } from '@/lib/http/route';
import { createTranscript } from '@/lib/domain/transcripts';
import { listTranscripts } from '@/lib/domain/transcript-reads';
import {
  transcriptCreateInput,
  transcriptListQuery,
  transcriptPage,
  transcriptResponse,
} from '@/lib/domain/transcripts.schemas';

export const GET = route(
  {
    tag: 'Recordings',
    summary: 'List transcripts (by room, session or source)',
    auth: auth.tenant('media.read'),
    query: transcriptListQuery,
    response: transcriptPage,
  },
  ({ auth, query }) => listTranscripts(auth.tenant, query),
);

export const POST = route(
  {
    tag: 'Recordings',
    summary: 'Transcribe completed recordings (one composite, or participant recordings of one room, with speakers)',
    auth: auth.tenant('media.write'),
    body: transcriptCreateInput,
    status: 202,
    response: transcriptResponse,
  },
  ({ auth, body }) => createTranscript(auth.tenant, body),
);
