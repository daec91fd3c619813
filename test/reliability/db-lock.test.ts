/**
 * A locked database against the real server: another process (a bun:sqlite connection in a child
 * process, as the sqlite3 shell or a backup tool would) takes the database's write lock with
 * BEGIN IMMEDIATE and holds it for LOCK_HOLD_SECONDS (default 30). Meanwhile reads and
 * /api/health keep answering, a write answers 503 "The database is busy; try again" with
 * Retry-After while the reads go on, and once the lock is released both writes are there.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AppProcess, startApp } from "../support/app-process.ts";
import { waitFor } from "../support/wait.ts";

const DB_BUSY_MESSAGE = "The database is busy; try again";

const HOLD_SECONDS = Number(process.env.LOCK_HOLD_SECONDS ?? 30);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-lock-"));
let app: AppProcess;
let token = "";

beforeAll(async () => {
  app = await startApp({ DATA_DIR: dataDir });
  token = await app.register("lock@example.com");
});
afterAll(async () => {
  app?.proc.kill("SIGTERM");
  await app?.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A child process that holds the write lock for `seconds`; its stdout says when. */
function holdLock(seconds: number) {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(process.env.DB_FILE);
    db.exec("BEGIN IMMEDIATE");
    db.exec("INSERT INTO notifications (user_id, level, message) VALUES (1, 'other', 'written by the other process')");
    console.log("locked");
    Bun.sleepSync(Number(process.env.HOLD_SECONDS) * 1000);
    db.exec("COMMIT");
    db.close();
    console.log("released");`;
  const child = Bun.spawn([process.execPath, "-e", script], {
    env: { DB_FILE: path.join(dataDir, "app.db"), HOLD_SECONDS: String(seconds) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = { text: "" };
  void (async () => {
    const dec = new TextDecoder();
    for await (const c of child.stdout) out.text += dec.decode(c, { stream: true });
  })();
  return { child, said: (word: string) => out.text.includes(word) };
}

const order = { productname: "Held lock lamp", asin: "B0LOCK0001" };

test(
  `an outside writer holding the lock for ${HOLD_SECONDS} s does not freeze the server`,
  async () => {
    const holder = holdLock(HOLD_SECONDS);
    await waitFor(() => holder.said("locked"), "the other process to take the lock");

    // A write waits for the lock without blocking the loop: health answers while it waits.
    const write = app.call("POST", "/api/orders", { token, body: order });
    let writeDone = false;
    void write.then(() => {
      writeDone = true;
    });
    expect((await app.call("GET", "/api/health")).status).toBe(200);
    expect(writeDone).toBe(false);
    const refused = await write;
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe(DB_BUSY_MESSAGE);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(holder.said("released")).toBe(false);

    // Reads and health answer for as long as the lock is held.
    let answered = 0;
    while (!holder.said("released")) {
      const [health, list] = await Promise.all([
        app.call("GET", "/api/health"),
        app.call("GET", "/api/orders", { token }),
      ]);
      expect(health.status).toBe(200);
      expect(list.status).toBe(200);
      answered++;
      await Bun.sleep(250);
    }
    expect(await holder.child.exited).toBe(0);
    expect(answered).toBeGreaterThan(1);

    // Released: the same write succeeds; the other process's write is there too.
    expect((await app.call("POST", "/api/orders", { token, body: order })).status).toBe(201);
    const list = await app.call("GET", "/api/orders", { token });
    expect(Number(list.headers.get("x-total-count"))).toBe(1);
    const notes = (await app.call("GET", "/api/notifications", { token })).body as unknown as {
      message: string;
    }[];
    expect(notes.map((n) => n.message)).toContain("written by the other process");
  },
  (HOLD_SECONDS + 30) * 1000,
);
