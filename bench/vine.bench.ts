/**
 * Vine standing (not a test): the real services and app over a real SQLite file with 10,000
 * orders for one user (bench/support/seed-orders.ts, dates over the past year), in the user's time
 * zone. Prints ms per GET /api/vine/standing and per ETV export, and the time to import a
 * 2,000-row Itemized Report (.xlsx built like Amazon's) the first time (adds every order) and the
 * second time (changes nothing).
 *
 *   bun run bench/vine.bench.ts
 *
 * Target (PASS/MISS, never a failure): the standing costs under 50 ms of CPU at 10,000 orders (CPU
 * time, not wall time: on a machine shared with other work the wall time is mostly waiting).
 */

import { REPORT_HEADERS } from "../src/contract/vine-constants.ts";
import { createHarness } from "../test/harness.ts";
import { buildXlsx, type XlsxCell } from "../test/support/xlsx.ts";
import { seedOrders } from "./support/seed-orders.ts";

const ORDERS = 10_000;
const REPORT_ROWS = 2_000;
const TARGET_MS = 50;

const h = createHarness();
const u = await h.register("vine-bench@example.com", "benchpass", "Bench");
const headers = { authorization: `Bearer ${u.token}` };
await h.app.request("/api/user/timezone", {
  method: "PATCH",
  headers: { ...headers, "content-type": "application/json" },
  body: JSON.stringify({ timezone: "America/Chicago" }),
});
seedOrders(h.db.$client, u.userid, ORDERS);

async function call(url: string, init: RequestInit = { headers }) {
  const res = await h.app.request(url, init);
  const body = await res.arrayBuffer();
  if (res.status !== 200)
    throw new Error(`${url}: ${res.status} ${new TextDecoder().decode(body)}`);
  return body;
}

/**
 * ms per call, the median of 5 rounds: wall time, and this process's CPU time (user + system),
 * which other processes on a busy machine disturb much less.
 */
async function time(fn: () => Promise<unknown>, n: number): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < 3; i++) await fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await fn();
    const c = process.cpuUsage(c0);
    walls.push((performance.now() - t0) / n);
    cpus.push((c.user + c.system) / 1000 / n);
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { wall: walls[2]!, cpu: cpus[2]! };
}

const standing = await time(() => call("/api/vine/standing"), 10);
const year = new Date().getFullYear();
const etv = await time(() => call(`/api/vine/etv.csv?year=${year}`), 5);

const rows: XlsxCell[][] = [[`Itemized Report ${year}`], [...REPORT_HEADERS]];
for (let i = 0; i < REPORT_ROWS; i++) {
  const number = `114-${String(i).padStart(7, "0")}-0000001`;
  rows.push([
    number,
    `B0BENCH${String(i).padStart(3, "0")}`.slice(0, 10),
    `Bench item ${i}`,
    "ORDER",
    new Date(Date.UTC(year, 0, 1 + (i % 300))),
    null,
    null,
    5 + (i % 50),
  ]);
}
const xlsx = buildXlsx(rows);
async function importOnce(): Promise<{ ms: number; summary: string }> {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(xlsx)], "report.xlsx"));
  const t0 = performance.now();
  const body = await call("/api/vine/itemized-report", { method: "POST", headers, body: form });
  return { ms: performance.now() - t0, summary: new TextDecoder().decode(body).slice(0, 80) };
}
const first = await importOnce();
const second = await importOnce();

console.log(`Vine standing, ${ORDERS} orders (America/Chicago)`);
console.log(
  `  GET /api/vine/standing        ${standing.wall.toFixed(2)} ms (CPU ${standing.cpu.toFixed(2)} ms)  target CPU < ${TARGET_MS} ms: ${standing.cpu < TARGET_MS ? "PASS" : "MISS"}`,
);
console.log(
  `  GET /api/vine/etv.csv         ${etv.wall.toFixed(2)} ms (CPU ${etv.cpu.toFixed(2)} ms)`,
);
console.log(`  Itemized Report, ${REPORT_ROWS} rows (${(xlsx.length / 1024).toFixed(0)} KB .xlsx)`);
console.log(`    first import (adds all)     ${first.ms.toFixed(1)} ms  ${first.summary}`);
console.log(`    second import (no change)   ${second.ms.toFixed(1)} ms  ${second.summary}`);
await h.close();
