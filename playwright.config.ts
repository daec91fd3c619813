/**
 * Browser tests: Debian's Chromium (scripts/ensure-chromium.ts installs it or says how) against the
 * real server started the way `npm start` starts it, on a fresh temp data folder and a free port.
 */
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Chosen once in the runner and inherited by its workers through the environment.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `grapevine-e2e-${process.pid}-${Date.now()}`);
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.e2e.ts",
  globalTeardown: "./e2e/support/global-teardown.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous on purpose: the suite must pass beside other work on a 2-CPU machine,
  // where a whole order's life in the browser took 30 s; alone it takes about 10.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The app takes the browser's language on a first visit: the specs read English unless they
    // set another locale (e2e/languages.e2e.ts).
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // The same entry as `npm start` (the build has already run in `npm run test:e2e`), wrapped
    // so a real Dovecot runs beside it as the Gmail the app talks to (e2e/support/server.ts).
    command: "./node_modules/.bin/bun run e2e/support/server.ts",
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info" },
    stdout: "ignore",
    stderr: "pipe",
    // SIGTERM first, so e2e/support/server.ts stops the app and its Dovecot cleanly.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
