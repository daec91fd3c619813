/**
 * Update All Tracking over 1,000 Shipped orders (not a test):
 *
 *   bun run bench/tracking-update-all.bench.ts            (3 runs, the median counts)
 *   bun run bench/tracking-update-all.bench.ts --orders 300 --runs 1
 *
 * The real services, carrier lookup and Hono app over a real SQLite file (test/harness.ts), called
 * through app.request, against the local fake carrier APIs (test/support/fake-carriers.ts) answering
 * every tracking call in 50 ms over real HTTP on 127.0.0.1. One user with N orders (the order
 * benchmarks' seed, bench/support/seed-orders.ts) made Shipped with a tracking number, carriers
 * UPS / FedEx / USPS in turn; every fifth is delivered, the rest in transit. Each run puts the
 * orders back to Shipped, then times POST /api/tracking/update-all until its answer.
 *
 * Figures: wall time, orders per second, the most tracking calls in flight per carrier (from the
 * fake servers), calls per carrier. The main runs raise USPS_HOURLY_LIMIT so that every USPS order
 * is a real call; one more run with the default quota (60 an hour) shows what a real USPS account
 * gets: the rest of its orders are counted as over the limit and left for a later run.
 *
 * Targets (PASS/MISS, a miss still exits 0): calls in flight never above each carrier's
 * concurrency (4); wall time <= 1.5x the ideal (N / (3 carriers x 4) x 50 ms); every order
 * answered. Figures go to bench/out/tracking-update-all.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UpdateAllTrackingResponse } from "../src/contract/index.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { startFakeCarriers } from "../test/support/fake-carriers.ts";
import { intArg } from "./support/bench-utils.ts";
import { seedOrders } from "./support/seed-orders.ts";

const ORDERS = intArg("--orders", 1000, 3);
const RUNS = intArg("--runs", 3, 1);
const LATENCY_MS = 50;
const CONCURRENCY = 4;
const CARRIERS = ["UPS", "FEDEX", "USPS"] as const;
const COMMAND = [
  "bun run bench/tracking-update-all.bench.ts",
  ...(process.argv.includes("--orders") ? [`--orders ${ORDERS}`] : []),
  ...(process.argv.includes("--runs") ? [`--runs ${RUNS}`] : []),
].join(" ");

const fake = startFakeCarriers({ latencyMs: LATENCY_MS });

async function setup(env: Record<string, string>) {
  const h = createHarness({ ...fake.env, ...env });
  const u = await h.register("bench@example.com", "benchpass", "Bench");
  seedOrders(h.db.$client, u.userid, ORDERS);
  const ids = (
    h.db.$client.query("SELECT id FROM orders WHERE user_id = ? ORDER BY id").all(u.userid) as {
      id: number;
    }[]
  ).map((r) => r.id);
  const setNumber = h.db.$client.prepare(
    "UPDATE orders SET tracking_number = ?, carrier = ? WHERE id = ?",
  );
  h.db.$client.transaction(() => {
    for (const [i, id] of ids.entries()) {
      setNumber.run(`BENCH${String(i).padStart(10, "0")}`, CARRIERS[i % 3] as string, id);
    }
  })();
  return { h, token: u.token, ids };
}

function resetOrders(h: Harness) {
  h.db.$client.run(
    `UPDATE orders SET status = 'Shipped', date_delivered = NULL, delivery_details = NULL,
       last_tracking_update = NULL`,
  );
  h.db.$client.run("DELETE FROM notifications");
  fake.reset();
  for (let i = 0; i < ORDERS; i++) {
    fake.set(`BENCH${String(i).padStart(10, "0")}`, i % 5 === 0 ? "delivered" : "in-transit");
  }
}

async function run(h: Harness, token: string) {
  resetOrders(h);
  const t0 = performance.now();
  const res = await h.app.request("/api/tracking/update-all", {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as UpdateAllTrackingResponse;
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`update-all answered ${res.status}`);
  const stats = fake.stats();
  return { ms, body, maxInFlight: stats.maxInFlight, calls: stats.calls };
}

const fmt = (n: number, d = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
let failedToMeasure = false;
try {
  console.log("== tracking update-all benchmark ==");
  console.log(`command:  ${COMMAND}`);
  console.log(
    `machine:  ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${os.platform()} ${os.release()}, bun ${Bun.version}, ${new Date().toISOString()}`,
  );
  console.log(
    `setup:    ${ORDERS} Shipped orders (UPS/FedEx/USPS in turn, 1 in 5 delivered), fake carriers answering in ${LATENCY_MS} ms\n`,
  );

  const main = await setup({ USPS_HOURLY_LIMIT: "100000" });
  const runs: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await run(main.h, main.token);
    runs.push(r);
    console.log(
      `run ${i + 1}:    ${fmt(r.ms)} ms, ${fmt((ORDERS * 1000) / r.ms, 1)} orders/s, answered ${r.body.successfulUpdates}/${r.body.totalProcessed}, delivered ${r.body.deliveredOrders}, most in flight UPS ${r.maxInFlight.UPS} / FedEx ${r.maxInFlight.FEDEX} / USPS ${r.maxInFlight.USPS}`,
    );
  }
  await main.h.close();
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  const median = sorted[Math.floor(sorted.length / 2)] as (typeof runs)[number];
  const maxInFlight = Object.fromEntries(
    CARRIERS.map((c) => [c, Math.max(...runs.map((r) => r.maxInFlight[c]))]),
  ) as Record<(typeof CARRIERS)[number], number>;
  const ideal = (ORDERS / (CARRIERS.length * CONCURRENCY)) * LATENCY_MS;

  // The default USPS quota: what a real account gets in one run.
  const quota = await setup({});
  const q = await run(quota.h, quota.token);
  await quota.h.close();

  const checks = [
    {
      name: `calls in flight <= ${CONCURRENCY} per carrier`,
      pass: CARRIERS.every((c) => maxInFlight[c] <= CONCURRENCY),
      value: CARRIERS.map((c) => `${c} ${maxInFlight[c]}`).join(", "),
    },
    {
      name: `wall time <= 1.5x ideal (${fmt(ideal)} ms)`,
      pass: median.ms <= ideal * 1.5,
      value: `${fmt(median.ms)} ms (${fmt(median.ms / ideal, 2)}x)`,
    },
    {
      name: "every order answered",
      pass: median.body.successfulUpdates === ORDERS,
      value: `${median.body.successfulUpdates}/${ORDERS}`,
    },
  ];
  console.log("");
  console.log(
    `median:   ${fmt(median.ms)} ms wall, ${fmt((ORDERS * 1000) / median.ms, 1)} orders/s; calls UPS ${median.calls.UPS}, FedEx ${median.calls.FEDEX}, USPS ${median.calls.USPS}`,
  );
  console.log(
    `quota:    with USPS_HOURLY_LIMIT=60: ${fmt(q.ms)} ms, answered ${q.body.successfulUpdates}/${q.body.totalProcessed}, USPS calls ${q.calls.USPS}`,
  );
  console.log(`          "${q.body.message}"`);
  for (const c of checks) console.log(`${c.pass ? "PASS" : "MISS"}  ${c.name}: ${c.value}`);

  fs.mkdirSync(path.join(import.meta.dir, "out"), { recursive: true });
  fs.writeFileSync(
    path.join(import.meta.dir, "out", "tracking-update-all.json"),
    `${JSON.stringify(
      {
        command: COMMAND,
        at: new Date().toISOString(),
        orders: ORDERS,
        latencyMs: LATENCY_MS,
        runs: runs.map((r) => ({
          ms: Math.round(r.ms),
          maxInFlight: r.maxInFlight,
          calls: r.calls,
        })),
        medianMs: Math.round(median.ms),
        ordersPerSecond: Math.round((ORDERS * 10_000) / median.ms) / 10,
        maxInFlight,
        idealMs: Math.round(ideal),
        defaultUspsQuota: { ms: Math.round(q.ms), ...q.body, uspsCalls: q.calls.USPS },
        checks,
      },
      null,
      2,
    )}\n`,
  );
} catch (err) {
  console.error(`could not measure: ${(err as Error).message}`);
  failedToMeasure = true;
} finally {
  fake.stop();
}
process.exit(failedToMeasure ? 1 : 0);
