/**
 * The browser tests' server (run by Bun from playwright.config.ts): a real Dovecot on 127.0.0.1
 * with one Gmail-like mailbox, then the app exactly as `npm start` runs it, pointed at that
 * Dovecot instead of imap.gmail.com. The mailbox's address, password and port are written to
 * DATA_DIR/e2e-mailbox.json for the specs. SIGTERM stops both.
 */
import fs from "node:fs";
import path from "node:path";
import { startDovecot } from "../../test/support/dovecot.ts";
import { startFakeAlerts } from "../../test/support/fake-alerts.ts";
import { startFakeCarriers } from "../../test/support/fake-carriers.ts";
import { startFakeOpenAI } from "../../test/support/fake-openai.ts";

export const E2E_MAILBOX = { user: "vine.reviewer@gmail.test", pass: "abcdefghijklmnop" };

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
fs.mkdirSync(dataDir, { recursive: true });

const dovecot = await startDovecot({ users: [E2E_MAILBOX] });
fs.writeFileSync(
  path.join(dataDir, "e2e-mailbox.json"),
  // pid: Dovecot leads its own process group (setsid); the global teardown kills that group in
  // case this wrapper was killed without a chance to stop it.
  JSON.stringify({ host: dovecot.host, port: dovecot.port, pid: dovecot.pid(), ...E2E_MAILBOX }),
);

// Fake UPS / FedEx / USPS / Ship24 APIs: the app gets their base URLs and credentials; specs drive
// them through POST {baseUrl}/__fake/scenario, read from DATA_DIR/e2e-carriers.json.
const carriers = startFakeCarriers();
fs.writeFileSync(
  path.join(dataDir, "e2e-carriers.json"),
  JSON.stringify({ baseUrl: carriers.baseUrl }),
);

// A fake OpenAI-compatible server for AI help; specs pick its answers with [fake:...] markers in
// the text they type (test/support/fake-openai.ts).
const openai = startFakeOpenAI({ apiKey: "sk-e2e" });

// The far sides of alert channels (ntfy, webhooks, a push service); specs read its address.
const alerts = startFakeAlerts();
fs.writeFileSync(path.join(dataDir, "e2e-alerts.json"), JSON.stringify({ baseUrl: alerts.url }));

const root = path.resolve(import.meta.dir, "..", "..");
// dist-server/ is built by `npm run test:e2e` (its build step) before Playwright starts this.
const app = Bun.spawn([process.execPath, "run", "dist-server/main.js"], {
  cwd: root,
  env: {
    ...process.env,
    ...carriers.env,
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_API_KEY: "sk-e2e",
    OPENAI_MODEL: "fake-e2e-model",
    OPENAI_TIMEOUT_MS: "10000",
    GMAIL_IMAP_HOST: dovecot.host,
    GMAIL_IMAP_PORT: String(dovecot.port),
    GMAIL_IMAP_TLS: "false",
    // The fake far sides of alert channels (ntfy, webhooks, a push service) are on 127.0.0.1.
    ALERTS_ALLOW_LOOPBACK: "true",
    // Every spec registers its own users from 127.0.0.1.
    SIGNUP_HOURLY_LIMIT: "100000",
  },
  stdout: "inherit",
  stderr: "inherit",
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  app.kill("SIGTERM");
  await app.exited;
  await dovecot.stop();
  carriers.stop();
  openai.stop();
  alerts.stop();
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
const code = await app.exited;
await stop(code ?? 1);
