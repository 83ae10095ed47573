import { route, auth } from '@/lib/http/route';
import { config } from '@/lib/config';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const GET = route({ tag: 'Operations', summary: 'This document', auth: auth.none }, async () =>
  buildOpenApiDocument(config().PUBLIC_BASE_URL),
);
