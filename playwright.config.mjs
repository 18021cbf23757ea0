// Browser tests against the release build in dist/, served on loopback, in Debian's chromium.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 4173);
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'artifacts/test-results',
  timeout: 60_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1400, height: 1000 },
    // The app registers a service worker (scripts/offline.mjs) that caches the whole site on the
    // first visit; only tests/e2e/offline.spec.mjs lets it run (it would fetch every file in
    // every other test too).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    command: `node scripts/serve.mjs dist ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 20_000,
  },
});
