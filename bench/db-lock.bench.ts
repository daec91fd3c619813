/**
 * Database-lock benchmark (not a test): how responsive the real server stays while another
 * process holds SQLite's write lock, and what the write gate costs when the lock
 * is free.
 *
 * 1. Starts the real server (bun run src/main.ts) on a temp DATA_DIR. A child process takes the
 *    write lock (BEGIN IMMEDIATE) and holds it for --hold seconds (default 10). Meanwhile
 *    GET /api/health is asked every 20 ms (latency p50/p99/max) and one write (POST /api/orders)
 *    is sent: its time to the 503 "The database is busy; try again".
 * 2. In process: µs per `waitForWriteLock` with the lock free (the gate every write request
 *    passes).
 *
 * Targets (PASS/MISS, never a non-zero exit): health max latency while locked < 100 ms (before
 * the gate, each write froze every request for 5 s), the write refused within 6 s, the gate
 * < 50 µs. It exits 1 only when it cannot measure.
 *
 *   bun run bench/db-lock.bench.ts [--hold S]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, waitForWriteLock } from "../src/db/client.ts";
import { startApp } from "../test/support/app-process.ts";
import { intArg } from "./support/bench-utils.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const HOLD_S = intArg("--hold", 10, 2);
const TARGET_HEALTH_MAX_MS = 100;
const TARGET_REFUSAL_MS = 6000;
const TARGET_GATE_US = 50;
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-lock-"));
const app = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const base = app.base;

try {
  const token = await app.register("bench@example.com");

  const holder = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const { Database } = require("bun:sqlite");
       const db = new Database(process.env.DB_FILE);
       db.exec("BEGIN IMMEDIATE"); console.log("locked");
       Bun.sleepSync(Number(process.env.HOLD_S) * 1000); db.exec("COMMIT"); console.log("released");`,
    ],
    {
      env: { DB_FILE: path.join(dataDir, "app.db"), HOLD_S: String(HOLD_S) },
      stdout: "pipe",
    },
  );
  const reader = holder.stdout.getReader();
  await reader.read(); // "locked"

  const t0 = performance.now();
  const write = fetch(`${base}/api/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ productname: "Bench lamp", asin: "B0BENCH001" }),
  }).then((r) => ({ status: r.status, ms: performance.now() - t0 }));

  const latencies: number[] = [];
  let released = false;
  void holder.exited.then(() => {
    released = true;
  });
  while (!released) {
    const s = performance.now();
    const r = await fetch(`${base}/api/health`);
    await r.arrayBuffer();
    if (!released) latencies.push(performance.now() - s);
    await Bun.sleep(20);
  }
  const refusal = await write;
  latencies.sort((a, b) => a - b);

  // The gate with the lock free, in process.
  const gateDir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-gate-"));
  const db = openDatabase(path.join(gateDir, "app.db"), path.join(ROOT, "migrations"));
  const N = 20_000;
  const g0 = performance.now();
  for (let i = 0; i < N; i++) await waitForWriteLock(db, { timeoutMs: 1000, stepMs: 50 });
  const gateUs = ((performance.now() - g0) * 1000) / N;
  db.$client.close();
  fs.rmSync(gateDir, { recursive: true, force: true });

  const healthMax = latencies.at(-1) ?? Number.NaN;
  console.log(`db-lock.bench: another process holds the write lock for ${HOLD_S} s`);
  console.log(
    `  GET /api/health meanwhile: ${latencies.length} answers, p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${healthMax.toFixed(1)} ms  target max < ${TARGET_HEALTH_MAX_MS} ms: ${verdict(healthMax < TARGET_HEALTH_MAX_MS)}`,
  );
  console.log(
    `  a write: ${refusal.status} after ${refusal.ms.toFixed(0)} ms  target 503 within ${TARGET_REFUSAL_MS} ms: ${verdict(refusal.status === 503 && refusal.ms < TARGET_REFUSAL_MS)}`,
  );
  console.log(
    `  the write gate with the lock free: ${gateUs.toFixed(1)} µs per write request  target < ${TARGET_GATE_US} µs: ${verdict(gateUs < TARGET_GATE_US)}`,
  );
  const outDir = path.join(ROOT, "bench", "out");
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, "db-lock.json"),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        command: `bun run bench/db-lock.bench.ts --hold ${HOLD_S}`,
        holdSeconds: HOLD_S,
        healthMs: {
          n: latencies.length,
          p50: pct(latencies, 50),
          p99: pct(latencies, 99),
          max: healthMax,
        },
        write: refusal,
        gateUs,
      },
      null,
      2,
    )}\n`,
  );
} catch (err) {
  console.error(`db-lock.bench could not measure: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  app.proc.kill("SIGTERM");
  await app.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
