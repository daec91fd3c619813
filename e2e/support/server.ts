/**
 * The browser tests' server (run by Bun from playwright.config.ts): a real Dovecot on 127.0.0.1
 * with one Gmail-like mailbox, then the app exactly as `npm start` runs it, pointed at that
 * Dovecot instead of imap.gmail.com. The mailbox's address, password and port are written to
 * DATA_DIR/e2e-mailbox.json for the specs. SIGTERM stops both.
 */
import fs from "node:fs";
import path from "node:path";
import { startDovecot } from "../../test/support/dovecot.ts";

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

const root = path.resolve(import.meta.dir, "..", "..");
const app = Bun.spawn([process.execPath, "run", "src/main.ts"], {
  cwd: root,
  env: {
    ...process.env,
    GMAIL_IMAP_HOST: dovecot.host,
    GMAIL_IMAP_PORT: String(dovecot.port),
    GMAIL_IMAP_TLS: "false",
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
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
const code = await app.exited;
await stop(code ?? 1);
