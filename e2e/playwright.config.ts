/**
 * Browser tests in Debian's Chromium against the real product: the server is started on a
 * throwaway DATA_DIR (embedded PostgreSQL, sandbox carrier, demo seed) and torn down afterwards.
 */
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3107);
const dataDir = path.join(os.tmpdir(), `switchboard-e2e-${process.pid}`);
// Google sign-in is configured against the local OpenID provider that tests/oidc.spec.ts starts on this loopback
// port, so the OIDC browser test always runs (set here, the workers and the server inherit it).
process.env.OIDC_GOOGLE_ISSUER ??= `http://127.0.0.1:${Number(process.env.E2E_OIDC_PORT ?? 3172)}`;
process.env.OIDC_GOOGLE_CLIENT_ID ??= 'e2e-google';
process.env.OIDC_GOOGLE_CLIENT_SECRET ??= 'e2e-secret';

export default defineConfig({
  testDir: './tests',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `node --import tsx ../apps/server/src/main.ts`,
    cwd: path.resolve(import.meta.dirname),
    url: `http://localhost:${port}/api/ready`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      CARRIER: 'sandbox',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
      OIDC_GOOGLE_ISSUER: process.env.OIDC_GOOGLE_ISSUER,
      OIDC_GOOGLE_CLIENT_ID: process.env.OIDC_GOOGLE_CLIENT_ID,
      OIDC_GOOGLE_CLIENT_SECRET: process.env.OIDC_GOOGLE_CLIENT_SECRET,
    },
  },
});
