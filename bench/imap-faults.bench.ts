/**
 * How the mailbox heals, against the real server and a real Dovecot, with the default
 * timings (not the tests' short ones):
 *
 *   bun run bench/imap-faults.bench.ts                    (about 5 minutes)
 *   bun run bench/imap-faults.bench.ts --outage-s 3600    (an hour-long outage)
 *
 * The server (`bun run src/main.ts`, fresh DATA_DIR) reaches Dovecot through the TCP proxy of
 * test/support/imap-fault-proxy.ts, which can stall, cut and refuse connections.
 *
 * 1. Huge message: the INBOX holds a 60 MB Amazon message (an attachment, as a real 59.5 MB one
 *    had) between small order mails; "Process Old Emails" runs; the server's RSS is sampled from
 *    /proc every 20 ms (and VmHWM, reset just before). Target: peak RSS < 150 MB.
 * 2. Stall: with the mailbox idling, the proxy stops carrying bytes on the open connection (new
 *    connections pass); an order mail arrives at once. Figures: stall start → the status says
 *    "reconnecting"; stall start → the order is in the database. Target: < 120 s.
 * 3. Outage: the proxy cuts the connection and refuses new ones for --outage-s seconds (default
 *    150: long enough for the backoff to reach its 60 s cap); an order mail arrives during it; the
 *    proxy lets connections through again. Figure: server back → the order is in the database.
 *    Target: < 90 s.
 *
 * Prints PASS/MISS; exits 1 only when it cannot measure. Figures go to bench/out/imap-faults.json.
 */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { amazonMail } from "../test/api/mail-messages.ts";
import { type AppProcess, startApp } from "../test/support/app-process.ts";
import { type Dovecot, startDovecot } from "../test/support/dovecot.ts";
import { type FaultProxy, startFaultProxy } from "../test/support/imap-fault-proxy.ts";
import { waitFor } from "../test/support/wait.ts";
import { procMem } from "./support/bench-utils.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const USER = "faults@example.test";
const PASS = "faults-app-pass";
const RSS_TARGET_MB = 150;
const STALL_TARGET_MS = 120_000;
const OUTAGE_TARGET_MS = 90_000;
const OUTAGE_S = (() => {
  const i = process.argv.indexOf("--outage-s");
  const v = i >= 0 ? Number(process.argv[i + 1]) : 150;
  return Number.isFinite(v) && v > 0 ? v : 150;
})();

const mb = (b: number) => b / 1024 / 1024;
const fmt = (n: number, d = 1) =>
  n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

let seq = 0;
function order(name: string, padTo = 0): string {
  seq++;
  const id = `115-${String(seq).padStart(7, "0")}-${String(seq * 17).padStart(7, "0")}`;
  const raw = amazonMail({
    kind: "ordered",
    order: id,
    items: [{ name, asin: `B5${String(seq).padStart(8, "0")}`, price: "0.00" }],
    total: "0.00",
    messageId: `bench-${id}@amazon.test`,
  });
  if (padTo <= raw.length) return raw;
  const line = `${"QUJD".repeat(19)}\r\n`;
  return `${raw}\r\n${line.repeat(Math.ceil((padTo - raw.length) / line.length))}`;
}

/** What was started, to stop at the end (also after a failure). */
const started: { dc?: Dovecot; proxy?: FaultProxy; app?: AppProcess } = {};
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-faults-"));

async function main() {
  const dc = await startDovecot({ users: [{ user: USER, pass: PASS }] });
  started.dc = dc;
  const proxy = await startFaultProxy({ host: dc.host, port: dc.port });
  started.proxy = proxy;
  const app = await startApp({
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    GMAIL_IMAP_HOST: "127.0.0.1",
    GMAIL_IMAP_PORT: String(proxy.port),
    GMAIL_IMAP_TLS: "false",
  });
  started.app = app;
  const { base } = app;
  const pid = app.proc.pid;
  const token = await app.register("faults@example.com");
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const connect = await fetch(`${base}/api/imap/app-password`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ email: USER, appPassword: PASS }),
  });
  if (!connect.ok) {
    throw new Error(`connect answered ${connect.status}: ${await connect.text()}`);
  }
  const status = async () =>
    (await (await fetch(`${base}/api/imap/status`, { headers: auth })).json()) as {
      status: string;
      reconnecting: boolean;
    };
  await waitFor(async () => (await status()).status === "idle", "IDLE", 20_000);
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  const orders = () => (db.query("SELECT COUNT(*) AS n FROM orders").get() as { n: number }).n;

  // 1. A 60 MB message in the folder, backfilled.
  dc.deliver(USER, order("Small Before"));
  dc.deliver(USER, order("Sixty Megabytes", 60 * 1024 * 1024));
  dc.deliver(USER, order("Small After"));
  await Bun.sleep(500);
  const before = procMem(pid);
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // VmHWM stays the peak since start
  }
  let peak = before?.rss ?? 0;
  const sampler = setInterval(() => {
    const m = procMem(pid);
    if (m && m.rss > peak) peak = m.rss;
  }, 20);
  const t0 = Date.now();
  const pe = await fetch(`${base}/api/imap/process-emails`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ daysBack: 1 }),
  });
  if (pe.status !== 202) throw new Error(`process-emails answered ${pe.status}`);
  await waitFor(
    () =>
      (db.query("SELECT status FROM mail_backfills").get() as { status: string } | null)?.status ===
      "done",
    "the backfill",
    120_000,
  );
  clearInterval(sampler);
  const after = procMem(pid);
  peak = Math.max(peak, after?.hwm ?? 0);
  const backfillMs = Date.now() - t0;
  const afterBackfill = orders();

  // 2. A stall.
  await waitFor(async () => (await status()).status === "idle", "IDLE", 30_000);
  const stallAt = Date.now();
  proxy.stall();
  await dc.append(USER, order("During The Stall"));
  await waitFor(async () => (await status()).reconnecting, "reconnecting", 300_000);
  const stallDetectMs = Date.now() - stallAt;
  await waitFor(() => orders() > afterBackfill, "the order sent during the stall", 300_000);
  const stallMailMs = Date.now() - stallAt;

  // 3. An outage.
  await waitFor(async () => (await status()).status === "idle", "IDLE", 30_000);
  const beforeOutage = orders();
  proxy.refuse();
  proxy.drop();
  await Bun.sleep(OUTAGE_S * 1000);
  await dc.append(USER, order("During The Outage"));
  const backAt = Date.now();
  proxy.pass();
  await waitFor(() => orders() > beforeOutage, "the order sent during the outage", 300_000);
  const outageMailMs = Date.now() - backAt;
  db.close();

  const figures = {
    hugeMessage: {
      messageMB: 60,
      rssBeforeMB: +mb(before?.rss ?? 0).toFixed(1),
      rssPeakMB: +mb(peak).toFixed(1),
      backfillMs,
      ordersCreated: afterBackfill,
      target: RSS_TARGET_MB,
      pass: mb(peak) < RSS_TARGET_MB,
    },
    stall: {
      detectedMs: stallDetectMs,
      firstMailMs: stallMailMs,
      target: STALL_TARGET_MS,
      pass: stallMailMs < STALL_TARGET_MS,
    },
    outage: {
      outageS: OUTAGE_S,
      firstMailAfterReturnMs: outageMailMs,
      target: OUTAGE_TARGET_MS,
      pass: outageMailMs < OUTAGE_TARGET_MS,
    },
  };
  console.log(
    "bench/imap-faults.bench.ts (real server, real Dovecot behind a fault proxy, default timings)",
  );
  console.log(
    `${verdict(figures.hugeMessage.pass)} 60 MB message in the folder: server peak RSS ${fmt(mb(peak))} MB during the backfill (before ${fmt(mb(before?.rss ?? 0))} MB; target < ${RSS_TARGET_MB} MB); backfill ${fmt(backfillMs / 1000)} s, ${afterBackfill} orders (the 60 MB one skipped as too-large)`,
  );
  console.log(
    `${verdict(figures.stall.pass)} stall: noticed ("reconnecting") after ${fmt(stallDetectMs / 1000)} s, the mail sent meanwhile processed after ${fmt(stallMailMs / 1000)} s (target < ${STALL_TARGET_MS / 1000} s)`,
  );
  console.log(
    `${verdict(figures.outage.pass)} outage of ${OUTAGE_S} s: first mail processed ${fmt(outageMailMs / 1000)} s after the server returned (target < ${OUTAGE_TARGET_MS / 1000} s)`,
  );
  fs.mkdirSync(path.join(ROOT, "bench/out"), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, "bench/out/imap-faults.json"),
    `${JSON.stringify(figures, null, 2)}\n`,
  );
}

let code = 0;
try {
  await main();
} catch (err) {
  console.error(`bench/imap-faults.bench.ts could not measure: ${(err as Error).message}`);
  code = 1;
} finally {
  started.app?.proc.kill("SIGTERM");
  await started.app?.exited;
  await started.proxy?.close();
  await started.dc?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
