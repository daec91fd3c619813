/**
 * Vine standing (not a test): the real services and app over a real SQLite file with 10,000
 * orders for one user (bench/support/seed-orders.ts, dates over the past year), in the user's time
 * zone. Prints ms per GET /api/vine/standing and per ETV export, and the time to import a
 * 2,000-row Itemized Report (.xlsx built like Amazon's) the first time (adds every order) and the
 * second time (changes nothing).
 *
 *   bun run bench/vine.bench.ts
 *
 * Target (PASS/MISS, never a failure): the standing answers in under 50 ms at 10,000 orders.
 */

import { REPORT_HEADERS } from "../src/features/vine/itemized-report.ts";
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

/** ms per call: the median of 5 rounds. */
async function time(fn: () => Promise<unknown>, n: number): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    rounds.push((performance.now() - t0) / n);
  }
  rounds.sort((a, b) => a - b);
  return rounds[2]!;
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
  `  GET /api/vine/standing        ${standing.toFixed(2)} ms  target < ${TARGET_MS} ms: ${standing < TARGET_MS ? "PASS" : "MISS"}`,
);
console.log(`  GET /api/vine/etv.csv         ${etv.toFixed(2)} ms`);
console.log(`  Itemized Report, ${REPORT_ROWS} rows (${(xlsx.length / 1024).toFixed(0)} KB .xlsx)`);
console.log(`    first import (adds all)     ${first.ms.toFixed(1)} ms  ${first.summary}`);
console.log(`    second import (no change)   ${second.ms.toFixed(1)} ms  ${second.summary}`);
await h.close();
