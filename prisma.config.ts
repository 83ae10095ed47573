import path from 'node:path';
import { defineConfig } from 'prisma/config';

// The native schema engine cannot be downloaded here; the stock CLI drives the WebAssembly
// engine through this executable bridge instead (see prisma/engine/schema-engine.mjs).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, 'prisma/engine/schema-engine.mjs');

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // `prisma generate` needs no database; a placeholder keeps it working without DATABASE_URL.
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://placeholder@127.0.0.1:5432/placeholder',
    shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL,
  },
});
