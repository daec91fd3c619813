/**
 * .eml/.mbox imports: the per-message cap of IMAP applies to each
 * imported message; an import cut short by a restart (the real server, killed with SIGKILL) is
 * listed by GET /api/imap/imports with which file stopped where, and importing the file again
 * finishes it without duplicates.
 */

import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IngestSummary, InterruptedImport, Order } from "../../src/contract/index.ts";
import { MAIL_MESSAGE_MAX_BYTES } from "../../src/features/mailbox/ingest.service.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type AppProcess, freePort, startApp } from "../support/app-process.ts";
import { call, type ErrorBody } from "./helpers.ts";
import { amazonMail } from "./mail-messages.ts";

function mbox(messages: string[]): string {
  return messages
    .map((m, i) => {
      const body = m.replace(/\r\n/g, "\n").replace(/^(>*From )/gm, ">$1");
      return `From 18${String(i).padStart(17, "0")}@xxx Tue Jan 14 15:04:0${i % 10} +0000 2025\n${body}${body.endsWith("\n") ? "" : "\n"}\n`;
    })
    .join("");
}

const form = (files: [string, string | Uint8Array][]) => {
  const fd = new FormData();
  for (const [name, content] of files) fd.append("files", new File([content as BlobPart], name));
  return fd;
};

let n = 0;
function vine(name: string, padTo = 0) {
  n++;
  const order = `111-${String(n).padStart(7, "0")}-${String(n * 13).padStart(7, "0")}`;
  const raw = amazonMail({
    kind: "ordered",
    order,
    items: [{ name, asin: `B4${String(n).padStart(8, "0")}`, price: "0.00" }],
    total: "0.00",
    messageId: `imp-${order}@amazon.test`,
  });
  if (padTo <= raw.length) return raw;
  // A large attachment-like tail (as a 59.5 MB Amazon message had), base64-ish lines.
  const line = `${"QUJD".repeat(19)}\n`;
  return `${raw}\n${line.repeat(Math.ceil((padTo - raw.length) / line.length))}`;
}

describe("the per-message cap applies to imports", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  test("an .eml and an mbox entry over 10 MB are counted too-large and not read; the rest is", async () => {
    const u = await h.register();
    const big = vine("Huge Attachment Order", MAIL_MESSAGE_MAX_BYTES + 1024);
    const file = mbox([vine("Small Before"), big, vine("Small After")]);
    const res = await call<IngestSummary & Partial<ErrorBody>>(h, "POST", "/api/imap/import", {
      token: u.token,
      raw: form([
        ["takeout.mbox", file],
        ["big.eml", vine("Huge Eml Order", MAIL_MESSAGE_MAX_BYTES + 10)],
      ]),
    });
    expect(res.status).toBe(200);
    expect(res.body.skipped["too-large"]).toBe(2);
    expect(res.body.ordersCreated).toBe(2);
    expect(res.body.messagesRead).toBe(4);
    const names = h.services.orders
      .list(u.userid, { status: "all", q: "", sort: "oldest", limit: 50, offset: 0 })
      .orders.map((o: Order) => o.productname);
    expect(names).toEqual(["Small Before", "Small After"]);
    // A finished import leaves nothing listed.
    const imports = await call<{ interrupted: InterruptedImport[] }>(
      h,
      "GET",
      "/api/imap/imports",
      {
        token: u.token,
      },
    );
    expect(imports.body.interrupted).toEqual([]);
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------

const dirs: string[] = [];
const procs: AppProcess[] = [];
afterAll(() => {
  for (const p of procs) p.proc.kill("SIGKILL");
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The real server on `dataDir` and `port` (the same port again after a restart). */
async function startServer(dataDir: string, port: number) {
  const app = await startApp({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" });
  procs.push(app);
  return app.proc;
}

describe("an interrupted import says so", () => {
  test("the server killed during an .mbox import: the file and where it stopped are listed; importing it again finishes it, no duplicates", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-import-"));
    dirs.push(dataDir);
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    let proc = await startServer(dataDir, port);

    const reg = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "imp@example.com", password: "secret1", displayname: "Imp" }),
    });
    const { token } = (await reg.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };

    const TOTAL = 4000;
    const file = mbox(Array.from({ length: TOTAL }, (_, i) => vine(`Import Item ${i + 1}`)));
    const upload = () =>
      fetch(`${base}/api/imap/import`, {
        method: "POST",
        headers: auth,
        body: form([["takeout.mbox", file]]),
      });

    // Killed once at least 500 of its messages are committed (the progress row says so).
    const cut = upload().catch(() => null);
    const db = () => new Database(path.join(dataDir, "app.db"), { readonly: true });
    let readAtKill = 0;
    const until = Date.now() + 60_000;
    while (Date.now() < until && readAtKill < 500) {
      const d = db();
      try {
        const row = d.query("SELECT messages_read AS n FROM mail_imports").get() as {
          n: number;
        } | null;
        readAtKill = row?.n ?? 0;
      } catch {
        // the table is created at boot; the file may be busy for a moment
      } finally {
        d.close();
      }
      if (readAtKill < 500) await Bun.sleep(5);
    }
    expect(readAtKill).toBeGreaterThanOrEqual(500);
    proc.kill("SIGKILL");
    await proc.exited;
    expect(await cut).toBeNull();

    proc = await startServer(dataDir, port);
    const listed = (await (await fetch(`${base}/api/imap/imports`, { headers: auth })).json()) as {
      interrupted: InterruptedImport[];
    };
    expect(listed.interrupted.length).toBe(1);
    const it = listed.interrupted[0]!;
    expect(it.fileName).toBe("takeout.mbox");
    expect(it.fileBytes).toBe(Buffer.byteLength(file));
    expect(it.messagesRead).toBeGreaterThanOrEqual(500);
    expect(it.messagesRead).toBeLessThan(TOTAL);
    expect(it.message).toContain(
      `"takeout.mbox" stopped after ${it.messagesRead.toLocaleString("en-US")} messages`,
    );
    expect(it.message).toContain("Import the same file again to finish it");

    // Again: every order exactly once, and the notice is gone.
    const again = await upload();
    expect(again.status).toBe(200);
    const summary = (await again.json()) as IngestSummary;
    expect(summary.messagesRead).toBe(TOTAL);
    expect(summary.ordersCreated + (summary.skipped.duplicate ?? 0)).toBe(TOTAL);
    expect(summary.ordersCreated).toBeLessThanOrEqual(TOTAL - it.messagesRead);
    const d = db();
    try {
      const row = d
        .query("SELECT COUNT(*) AS n, COUNT(DISTINCT amazon_order_number) AS u FROM orders")
        .get() as { n: number; u: number };
      expect(row).toEqual({ n: TOTAL, u: TOTAL });
    } finally {
      d.close();
    }
    const after = (await (await fetch(`${base}/api/imap/imports`, { headers: auth })).json()) as {
      interrupted: InterruptedImport[];
    };
    expect(after.interrupted).toEqual([]);
    proc.kill("SIGTERM");
    await proc.exited;
  }, 120_000);
});

describe("the interrupted-import notice can be dismissed", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  test("DELETE /api/imap/imports forgets the user's stopped imports, not another user's", async () => {
    const a = await h.register();
    const b = await h.register();
    // Left by a previous process (no import of this one owns them).
    const insert = h.db.$client.query(
      "INSERT INTO mail_imports (user_id, file_name, file_bytes, messages_read) VALUES (?, ?, ?, ?)",
    );
    insert.run(a.userid, "old.mbox", 1000, 20);
    insert.run(b.userid, "theirs.mbox", 2000, 0);
    const list = (token: string) =>
      call<{ interrupted: InterruptedImport[] }>(h, "GET", "/api/imap/imports", { token });
    expect((await list(a.token)).body.interrupted.map((i) => i.fileName)).toEqual(["old.mbox"]);
    const bList = (await list(b.token)).body.interrupted;
    expect(bList.map((i) => i.message)).toEqual([
      'The import of "theirs.mbox" stopped before any of its messages was read and did not finish (the server restarted or the import failed). Import the same file again to finish it: messages already read are skipped, nothing is duplicated.',
    ]);
    const del = await call(h, "DELETE", "/api/imap/imports", { token: a.token });
    expect(del.status).toBe(200);
    expect((await list(a.token)).body.interrupted).toEqual([]);
    expect((await list(b.token)).body.interrupted.length).toBe(1);
    const anon = await call(h, "DELETE", "/api/imap/imports", {});
    expect(anon.status).toBe(401);
  });
});
