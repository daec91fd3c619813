/**
 * A slow stop against the real server process: SIGTERM during a slow upload (a mail import
 * whose body arrives in two halves). New requests get 503 at once; the upload in flight finishes
 * within SHUTDOWN_GRACE_SECONDS and the process exits 0 — or, when the grace period runs out, the
 * upload is cut and the process exits 1. Either way no temp (.part) file is left behind.
 * And SIGTERM during "Process Old Emails" against a real Dovecot: the process exits 0 within the
 * grace period, and after a restart the backfill resumes to exactly one order per mail.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { amazonMail } from "../api/mail-messages.ts";
import { type AppProcess, startApp } from "../support/app-process.ts";
import { startDovecot } from "../support/dovecot.ts";
import { waitFor } from "../support/wait.ts";

const STOPPING_MESSAGE = "The server is restarting; try again in a moment";

const ROOT = path.resolve(import.meta.dir, "../..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir` (relative paths). */
const filesUnder = (dir: string) =>
  (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

/**
 * A multipart import sent over a raw socket, so the test decides when each half of the body
 * goes out. `finish()` sends the rest; `response` resolves with the raw HTTP answer ("" when the
 * server closed the connection without one).
 */
function slowImport(base: string, token: string) {
  const eml = fs.readFileSync(path.join(ROOT, "test/fixtures/mail/us-ordered-2025-vine.eml"));
  const boundary = "----grapevine-slow-upload";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="vine.eml"\r\nContent-Type: message/rfc822\r\n\r\n`,
    ),
    eml,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const half = Math.floor(body.length / 2);
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.write(
    `POST /api/imap/import HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, half));
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  const response = new Promise<string>((resolve) => {
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", () => {});
  });
  return { finish: () => socket.write(body.subarray(half)), response };
}

async function started(grace: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-stop-"));
  dirs.push(dataDir);
  const app = await startApp({ DATA_DIR: dataDir, SHUTDOWN_GRACE_SECONDS: String(grace) });
  const token = await app.register("stop@example.com");
  const upload = slowImport(app.base, token);
  // The server is writing the upload to its temp file.
  await waitFor(
    () => filesUnder(dataDir).some((f) => f.startsWith("tmp/import-") && f.endsWith(".part")),
    "the upload's temp file",
  );
  return { app, dataDir, upload };
}

describe("SIGTERM", () => {
  test("new requests get 503 at once; the upload in flight finishes; exit 0; no .part file", async () => {
    const { app, dataDir, upload } = await started(20);
    app.proc.kill("SIGTERM");
    const refused = await waitFor(async () => {
      const r = await app.call("GET", "/api/health").catch(() => null);
      return r?.status === 503 ? r : null;
    }, "a 503 for a new request");
    expect(refused.body.error).toBe(STOPPING_MESSAGE);
    expect(refused.headers.get("retry-after")).toBe("10");

    upload.finish();
    const answer = await upload.response;
    expect(answer).toStartWith("HTTP/1.1 200");
    expect(answer).toContain('"messagesRead":1');
    expect(await app.exited).toBe(0);
    expect(app.stdout()).toContain('"msg":"stopped"');
    expect(filesUnder(dataDir).filter((f) => f.includes("tmp/") || f.endsWith(".part"))).toEqual(
      [],
    );
    // What the import did is in the database.
    const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
    const scans = db.query("SELECT count(*) AS n FROM processed_messages").get() as { n: number };
    db.close();
    expect(scans.n).toBe(1);
  }, 30_000);

  test("an upload that outlasts the grace period is cut: exit 1, no .part file", async () => {
    const { app, dataDir, upload } = await started(1);
    app.proc.kill("SIGTERM");
    expect(await app.exited).toBe(1);
    expect(await upload.response).not.toStartWith("HTTP/1.1 200");
    expect(app.stdout()).toContain("the grace period is over");
    expect(filesUnder(dataDir).filter((f) => f.includes("tmp/") || f.endsWith(".part"))).toEqual(
      [],
    );
  }, 30_000);
});

describe("SIGTERM during Process Old Emails (a real Dovecot)", () => {
  const USER = "stop-backfill@example.test";
  const PASS = "stop-backfill-pass";
  const MAILS = 3000;

  test("it stops within the grace period with exit 0; after a restart the backfill resumes: every mail one order, none twice", async () => {
    const dc = await startDovecot({ users: [{ user: USER, pass: PASS }] });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-stop-backfill-"));
    dirs.push(dataDir);
    const env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      SHUTDOWN_GRACE_SECONDS: "25",
      GMAIL_IMAP_HOST: "127.0.0.1",
      GMAIL_IMAP_PORT: String(dc.port),
      GMAIL_IMAP_TLS: "false",
    };
    let app: AppProcess | null = null;
    try {
      app = await startApp(env);
      const token = await app.register("stop-backfill@example.com");
      const connect = await app.call("POST", "/api/imap/app-password", {
        token,
        body: { email: USER, appPassword: PASS },
      });
      expect(connect.status).toBe(200);
      await waitFor(async () => {
        const st = await app?.call("GET", "/api/imap/status", { token });
        return st?.body.status === "idle";
      }, "the mailbox watching its folder");
      // Mail that was in the folder before: only "Process Old Emails" reads it.
      for (let i = 0; i < MAILS; i++) {
        const order = `116-${String(i).padStart(7, "0")}-${String(i * 13).padStart(7, "0")}`;
        dc.deliver(
          USER,
          amazonMail({
            kind: "ordered",
            order,
            items: [
              { name: `Backfilled ${i}`, asin: `B6${String(i).padStart(8, "0")}`, price: "0.00" },
            ],
            total: "0.00",
            messageId: `stop-${order}@amazon.test`,
          }),
        );
      }
      const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
      const orders = () => (db.query("SELECT COUNT(*) AS n FROM orders").get() as { n: number }).n;
      const distinct = () =>
        (
          db.query("SELECT COUNT(DISTINCT amazon_order_number) AS n FROM orders").get() as {
            n: number;
          }
        ).n;
      const backfill = () =>
        (db.query("SELECT status FROM mail_backfills").get() as { status: string } | null)?.status;

      const pe = await app.call("POST", "/api/imap/process-emails", {
        token,
        body: { daysBack: 1 },
      });
      expect(pe.status).toBe(202);
      // Stopped while the backfill is under way: some orders are in, not all.
      await waitFor(() => orders() > 0, "the first backfilled orders", 60_000);
      app.proc.kill("SIGTERM");
      expect(await app.exited).toBe(0);
      expect(app.stdout()).toContain('"inTime":true');
      const atStop = orders();
      expect(atStop).toBeLessThan(MAILS);
      expect(backfill()).not.toBe("done");

      // Started again on the same data: the backfill goes on where it stopped.
      app = await startApp(env);
      // 3,000 mails read twice over: on a busy 2-CPU machine this is minutes of honest work.
      await waitFor(() => backfill() === "done", "the resumed backfill", 240_000);
      expect(orders()).toBe(MAILS);
      expect(distinct()).toBe(MAILS);
      db.close();
    } finally {
      if (app && app.proc.exitCode === null) {
        app.proc.kill("SIGTERM");
        await app.exited;
      }
      await dc.stop();
    }
  }, 360_000);
});
