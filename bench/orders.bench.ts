/**
 * Orders and dashboard under load (not a test). Starts the real server (`bun run src/main.ts`) on a
 * fresh data folder, registers one user, seeds 10,000 orders for them straight into SQLite, then
 * drives 10 concurrent clients at each endpoint for a fixed time and prints latency (p50, p99)
 * and throughput beside a trivial endpoint of the same server (GET /api/health) measured in the
 * same run; the ratio is the figure. Each list request runs twice: as repeated reads of one page
 * and "other pages", where every request asks for another page. Last, the time from an order
 * change (PUT) to its live event at a connected SSE client.
 *
 * Targets (PASS/MISS, never a failing exit): p99 < 20 ms at 10,000 orders; throughput >= 30 % of
 * the trivial endpoint's; events delivered within 50 ms.
 *
 *   bun run bench/orders.bench.ts            (or: npm run bench)
 */
import { Database } from "bun:sqlite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp } from "../test/support/app-process.ts";
import { seedOrders } from "./support/seed-orders.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const ORDERS = 10_000;
const CLIENTS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const EVENT_SAMPLES = 50;

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function seed(dbFile: string, userId: number) {
  const db = new Database(dbFile);
  db.exec("PRAGMA busy_timeout = 5000");
  seedOrders(db, userId, ORDERS);
  db.close();
}

type Result = { name: string; n: number; rps: number; p50: number; p99: number; errors: number };

/** One address, or a function of the request's number (a different page each time). */
type Target = string | ((n: number) => string);

async function load(name: string, url: Target, token: string): Promise<Result> {
  const lat: number[] = [];
  let errors = 0;
  let sent = 0;
  const next = typeof url === "string" ? () => url : () => url(sent++);
  const until = performance.now() + SECONDS * 1000;
  const headers = { Authorization: `Bearer ${token}` };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(next(), { headers });
        await res.arrayBuffer();
        lat.push(performance.now() - t0);
        if (!res.ok) errors++;
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  lat.sort((a, b) => a - b);
  return {
    name,
    n: lat.length,
    rps: lat.length / secs,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    errors,
  };
}

async function eventLatency(base: string, token: string, orderId: number): Promise<number[]> {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/events/stream?token=${encodeURIComponent(token)}`, {
    signal: ctrl.signal,
  });
  if (!res.ok || !res.body) throw new Error(`event stream answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const nextEvent = async () => {
    for (;;) {
      const i = buffer.indexOf("\n\n");
      if (i >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (block.split("\n").some((l) => l.startsWith("data:") && l.includes('"order"'))) return;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream closed");
      buffer += decoder.decode(value, { stream: true });
    }
  };
  await Bun.sleep(100);
  const samples: number[] = [];
  for (let i = 0; i < EVENT_SAMPLES; i++) {
    const t0 = performance.now();
    const waiting = nextEvent();
    const put = await fetch(`${base}/api/orders/${orderId}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ reviewsubject: `bench ${i}` }),
    });
    await put.arrayBuffer();
    await waiting;
    samples.push(performance.now() - t0);
  }
  ctrl.abort();
  return samples.sort((a, b) => a - b);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-orders-"));
const app = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const { base } = app;
try {
  console.log("== orders benchmark ==");
  console.log("command:  bun run bench/orders.bench.ts");
  console.log(
    `machine:  bun ${Bun.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} cores, ${new Date().toISOString()}`,
  );
  console.log(
    `setup:    ${ORDERS} orders for one user, ${CLIENTS} concurrent clients, ${SECONDS} s per endpoint\n`,
  );
  const reg = await app.call("POST", "/api/auth/register", {
    body: { email: "bench@example.com", password: "benchpass", displayname: "Bench" },
  });
  const { token, user } = reg.body as { token: string; user: { userid: number } };
  const t0 = performance.now();
  seed(path.join(dataDir, "app.db"), user.userid);
  console.log(`seeded ${ORDERS} orders in ${Math.round(performance.now() - t0)} ms\n`);

  const listEndpoints: [string, string][] = [
    ["orders: first page", "/api/orders?limit=10"],
    [
      "orders: Shipped filter (per-filter order), page 3",
      "/api/orders?status=Shipped&limit=25&offset=50",
    ],
    ["orders: Received filter, oldest delivery", "/api/orders?status=Received&limit=25"],
    ["orders: search 'lamp'", "/api/orders?q=lamp&limit=25"],
    ["orders: Highest Value, page 20", "/api/orders?sort=value-desc&limit=25&offset=475"],
    ["orders: Product A-Z, 100 per page", "/api/orders?sort=product-asc&limit=100"],
  ];
  /** Request n starts n mod SPAN rows further on: every request asks for another page. */
  const SPAN = 128;
  const otherPages = (p: string) => {
    const u = new URL(base + p);
    const offset = Number(u.searchParams.get("offset") ?? 0);
    return (n: number): string => {
      u.searchParams.set("offset", String(offset + (n % SPAN)));
      return u.toString();
    };
  };
  const endpoints: [string, Target][] = [
    ["trivial GET /api/health", "/api/health"],
    ...listEndpoints,
    ...listEndpoints.map(([name, p]): [string, Target] => [
      name.replace("orders:", "other pages:"),
      otherPages(p),
    ]),
    ["dashboard/counts", "/api/dashboard/counts"],
    ["dashboard/recent", "/api/dashboard/recent"],
    ["dashboard/stats", "/api/dashboard/stats"],
    ["trivial GET /api/health (again)", "/api/health"],
  ];
  const results: Result[] = [];
  for (const [name, p] of endpoints) {
    results.push(await load(name, typeof p === "string" ? base + p : p, token));
  }
  const trivial = (results[0]!.rps + results.at(-1)!.rps) / 2;
  console.log(
    "endpoint                                            req/s    p50 ms   p99 ms   vs trivial  errors",
  );
  // Worst figures of repeated reads of one page and of reads of other pages.
  const worst = { same: { p99: 0, ratio: Infinity }, other: { p99: 0, ratio: Infinity } };
  for (const r of results) {
    const ratio = r.rps / trivial;
    if (!r.name.startsWith("trivial")) {
      const w = r.name.startsWith("other pages") ? worst.other : worst.same;
      w.p99 = Math.max(w.p99, r.p99);
      w.ratio = Math.min(w.ratio, ratio);
    }
    console.log(
      `${r.name.padEnd(50)} ${r.rps.toFixed(0).padStart(6)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${(ratio * 100).toFixed(0).padStart(10)}% ${String(r.errors).padStart(7)}`,
    );
  }
  for (const [label, w] of [
    ["repeated reads of one page", worst.same],
    ["every read another page", worst.other],
  ] as const) {
    console.log(
      `\n${label}: worst p99 ${w.p99.toFixed(2)} ms  target < 20 ms: ${w.p99 < 20 ? "PASS" : "MISS"}`,
    );
    console.log(
      `${label}: worst throughput ${(w.ratio * 100).toFixed(0)}% of trivial  target >= 30%: ${w.ratio >= 0.3 ? "PASS" : "MISS"}`,
    );
  }

  try {
    const ev = await eventLatency(base, token, 1);
    console.log(
      `\norder change -> live event at a connected client (${EVENT_SAMPLES} samples, PUT included): p50 ${pct(ev, 50).toFixed(2)} ms, p95 ${pct(ev, 95).toFixed(2)} ms, max ${ev.at(-1)!.toFixed(2)} ms  target < 50 ms: ${ev.at(-1)! < 50 ? "PASS" : "MISS"}`,
    );
  } catch (err) {
    console.log(`\nevent latency not measured: ${(err as Error).message}`);
  }
  fs.mkdirSync(path.join(ROOT, "bench", "out"), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, "bench", "out", "orders.json"),
    JSON.stringify({ results, trivial }, null, 2),
  );
  console.log("figures saved to bench/out/orders.json");
} finally {
  app.proc.kill("SIGTERM");
  await app.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
