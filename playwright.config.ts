import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { appServerArgs } from './scripts/server-flags';

/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; Playwright's own browser download
 * cannot work here) against the production build (`npm run test:e2e` builds it into .next-e2e).
 * The hosted call UI needs no database: it reads the participant token in the browser.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    },
  },
  webServer: {
    command: ['node', ...appServerArgs(PORT)].join(' '),
    url: `http://127.0.0.1:${PORT}/join`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next-e2e',
      QUEUE_WORKERS: 'false',
      DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused',
      CONVENE_MASTER_KEY: 'e2e-only-master-key-0123456789abcdef',
      // A production server refuses missing or published media credentials: a random pair per run.
      LIVEKIT_API_KEY: process.env.LIVEKIT_API_KEY ?? `APIe2e${randomBytes(6).toString('hex')}`,
      LIVEKIT_API_SECRET: process.env.LIVEKIT_API_SECRET ?? randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'warn',
    },
  },
});
