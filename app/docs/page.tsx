import type { Metadata } from 'next';
import { ApiReference } from '@/components/ApiReference';

export const metadata: Metadata = { title: 'API reference · Convene' };

// The reference is the OpenAPI document the API serves, rendered by Redoc.
export default function DocsPage() {
  return <ApiReference specUrl="/api/v1/openapi.json" />;
}
