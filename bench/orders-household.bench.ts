/**
 * The orders list and the dashboard under a household's load (not a test). Starts the real server
 * on a fresh data folder, registers USERS users (default 3) and seeds 10,000 orders for each
 * straight into SQLite. Every user has two tabs open: the dashboard (counts, recent, stats) and
 * the orders list (first page of 10, the web app's default). Two kinds of rounds, all users at once:
 *
 * - "after a change": the user changes an order (a PUT, as an edit or a mail does), and each of
 *   their tabs refetches what the change's live event invalidates, all at once; then again, back to
 *   back. Every read follows a write of that user's orders, so nothing the server kept of them
 *   is still valid: this is the uncached read path.
 * - "re-read": the same reads without a change between them (a tab coming back into focus,
 *   navigation): what a server-side cache could answer.
 *
 * Each user's round comes every PERIOD_MS (default 250 ms: four changes a second per user, far
 * more than a household makes, bursts of a mail backfill aside), whether or not the last one has
 * been answered, so users' bursts meet as they would; with `--period-ms 1`, back to back.
 * With `--compare DIR`, a second server from another checkout (e.g. `git archive main` unpacked
 * with node_modules linked) runs beside this one and the rounds alternate between them, so both
 * are measured in the same minutes under the same load. `uptime` is printed at the start and end.
 *
 *   bun run bench/orders-household.bench.ts [--users N] [--seconds S] [--rounds R] [--period-ms P]
 *                                             [--compare DIR]
 */
import { Database } from "bun:sqlite";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AppProcess, startApp } from "../test/support/app-process.ts";
import { intArg } from "./support/bench-utils.ts";
import { seedOrders } from "./support/seed-orders.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const ORDERS = 10_000;
const USERS = intArg("--users", 3, 1);
const SECONDS = intArg("--seconds", 2, 1);
const ROUNDS = intArg("--rounds", 3, 1);
/** Each user's tabs refetch this often (a change and its live event, or a re-read). */
const PERIOD_MS = intArg("--period-ms", 250, 1);
const compareAt = process.argv.indexOf("--compare");
const COMPARE = compareAt > 0 ? path.resolve(process.argv[compareAt + 1] ?? "") : null;
const TARGET_P99_MS = 20;

const DASHBOARD = ["/api/dashboard/counts", "/api/dashboard/recent", "/api/dashboard/stats"];
const LIST = "/api/orders?limit=10&offset=0";

type Server = {
  label: string;
  dataDir: string;
  app: AppProcess;
  users: { token: string; orderId: number }[];
};
type Samples = Record<string, number[]>;

/** The list of figures named `name`, created empty on first use. */
function samplesOf(into: Samples, name: string): number[] {
  into[name] ??= [];
  return into[name];
}

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timedGet(base: string, url: string, token: string, ...into: number[][]) {
  const t0 = performance.now();
  const res = await fetch(base + url, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const ms = performance.now() - t0;
  for (const a of into) a.push(ms);
}

async function start(label: string, root: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-household-"));
  const app = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, root);
  const users: Server["users"] = [];
  for (let i = 0; i < USERS; i++) {
    const reg = await app.call("POST", "/api/auth/register", {
      body: { email: `bench${i}@example.com`, password: "benchpass", displayname: `Bench ${i}` },
    });
    const { token, user } = reg.body as { token: string; user: { userid: number } };
    const db = new Database(path.join(dataDir, "app.db"));
    db.exec("PRAGMA busy_timeout = 5000");
    seedOrders(db, user.userid, ORDERS);
    const first = db
      .query<{ id: number }, [number]>("SELECT MIN(id) AS id FROM orders WHERE user_id = ?")
      .get(user.userid);
    db.close();
    users.push({ token, orderId: first?.id ?? 0 });
  }
  return { label, dataDir, app, users };
}

/** One kind of round on one server for SECONDS: every user's bursts, each on its own schedule. */
async function round(s: Server, kind: "change" | "reread", into: Samples) {
  const until = performance.now() + SECONDS * 1000;
  const list = samplesOf(into, `${kind}: orders list`);
  const dash = DASHBOARD.map((u) => samplesOf(into, `${kind}: ${u.slice(5)}`));
  const all = samplesOf(into, `${kind}: all reads`);
  let n = 0;
  const burst = async (u: Server["users"][number]) => {
    if (kind === "change") {
      const res = await fetch(`${s.app.base}/api/orders/${u.orderId}`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${u.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ reviewsubject: `bench ${n++}` }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`PUT: ${res.status}`);
    }
    await Promise.all([
      timedGet(s.app.base, LIST, u.token, list, all),
      ...DASHBOARD.map((url, i) => timedGet(s.app.base, url, u.token, dash[i]!, all)),
    ]);
  };
  const pending: Promise<void>[] = [];
  await Promise.all(
    s.users.map(async (u, i) => {
      // Users start a fraction of a period apart, as independent people would.
      const start = performance.now() + (i * PERIOD_MS) / s.users.length;
      for (let next = start; next < until; next += PERIOD_MS) {
        await Bun.sleep(Math.max(0, next - performance.now()));
        pending.push(burst(u));
      }
    }),
  );
  await Promise.all(pending);
}

async function health(s: Server, into: Samples) {
  const until = performance.now() + (SECONDS * 1000) / 2;
  const lat = samplesOf(into, "trivial GET /api/health, one client");
  while (performance.now() < until) await timedGet(s.app.base, "/api/health", "", lat);
}

const servers: Server[] = [];
try {
  console.log("== orders and dashboard, a household's load ==");
  console.log(
    `command:  bun run bench/orders-household.bench.ts ${process.argv.slice(2).join(" ")}`,
  );
  console.log(
    `machine:  bun ${Bun.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} cores, ${new Date().toISOString()}`,
  );
  console.log(
    `setup:    ${USERS} users × ${ORDERS} orders, 2 tabs each (dashboard: 3 reads; list: 1), ${ROUNDS} rounds × ${SECONDS} s per kind, a burst per user every ${PERIOD_MS} ms`,
  );
  console.log(`start:    ${uptime()}\n`);
  servers.push(await start("this checkout", ROOT));
  if (COMPARE) servers.push(await start(`--compare ${COMPARE}`, COMPARE));
  const samples = new Map<Server, Samples>(servers.map((s) => [s, {}]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of servers) {
      const into = samples.get(s)!;
      await round(s, "change", into);
      await round(s, "reread", into);
      await health(s, into);
    }
  }
  const out: Record<string, Record<string, { n: number; p50: number; p99: number }>> = {};
  for (const s of servers) {
    console.log(`\n${s.label}`);
    console.log(
      `${"reads".padEnd(40)} ${"n".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`,
    );
    const figures: (typeof out)[string] = {};
    for (const [name, lat] of Object.entries(samples.get(s)!)) {
      lat.sort((a, b) => a - b);
      figures[name] = { n: lat.length, p50: pct(lat, 50), p99: pct(lat, 99) };
      console.log(
        `${name.padEnd(40)} ${String(lat.length).padStart(6)} ${pct(lat, 50).toFixed(2).padStart(8)} ${pct(lat, 99).toFixed(2).padStart(8)}`,
      );
    }
    for (const kind of ["change", "reread"]) {
      const p99 = figures[`${kind}: all reads`]?.p99 ?? Number.NaN;
      console.log(
        `${kind === "change" ? "after a change (uncached)" : "re-read (cacheable)"}: p99 ${p99.toFixed(2)} ms  target < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? "PASS" : "MISS"}`,
      );
    }
    out[s.label] = figures;
  }
  console.log(`\nend:      ${uptime()}`);
  fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, "bench", "out", "orders-household.json"),
    JSON.stringify(out, null, 2),
  );
  console.log("figures saved to bench/out/orders-household.json");
} finally {
  for (const s of servers) {
    s.app.proc.kill("SIGTERM");
    await s.app.exited;
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
}
