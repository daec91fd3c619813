/**
 * Orders and dashboard, in process (not a test): the real services and Hono app over a real SQLite
 * file (test/harness.ts), called through app.request — no network, no second process — so the
 * figures are the server's own cost per request. Seeds 10,000 orders for one user the way
 * bench/orders.bench.ts does, then times N calls of each endpoint and prints µs per request; also
 * a few raw SQL statements for comparison.
 *
 *   bun run bench/orders-inprocess.bench.ts            (BENCH_N=2000 by default)
 *
 * The "after write" column times each call right after a write through the API (PUT of an
 * order), as a tab's refetch after a live event comes (the write's own cost subtracted).
 */
import os from "node:os";
import { createHarness } from "../test/harness.ts";
import { seedOrders } from "./support/seed-orders.ts";

const ORDERS = 10_000;
const N = Number(process.env.BENCH_N ?? 2000);

const h = createHarness();
const u = await h.register("bench@example.com", "benchpass", "Bench");

seedOrders(h.db.$client, u.userid, ORDERS);

const headers = { authorization: `Bearer ${u.token}` };
async function call(url: string, init?: RequestInit, expect = 200) {
  const res = await h.app.request(url, init ?? { headers });
  await res.arrayBuffer();
  if (res.status !== expect) throw new Error(`${url}: ${res.status}`);
  return res;
}

/** µs per call: the median of 5 rounds of n/5 calls each (less noise than one long run). */
async function time(fn: () => Promise<unknown> | unknown, n = N): Promise<number> {
  for (let i = 0; i < Math.min(200, n); i++) await fn(); // warm up
  const rounds: number[] = [];
  const per = Math.max(1, Math.floor(n / 5));
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) await fn();
    rounds.push(((performance.now() - t0) * 1000) / per);
  }
  rounds.sort((a, b) => a - b);
  return rounds[2]!;
}

let putCount = 0;
const write = () =>
  call("/api/orders/1", {
    method: "PUT",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ reviewsubject: `bench ${putCount++}` }),
  });

const endpoints: [string, string, number?][] = [
  ["trivial GET /api/health", "/api/health"],
  ["auth only (GET /api/shipping/x: 404)", "/api/shipping/x", 404],
  ["GET /api/user/data", "/api/user/data"],
  ["orders limit=10", "/api/orders?limit=10"],
  ["orders Shipped, page 3", "/api/orders?status=Shipped&limit=25&offset=50"],
  ["orders Received", "/api/orders?status=Received&limit=25"],
  ["orders search 'lamp' (~1/18)", "/api/orders?q=lamp&limit=25"],
  ["orders search '11' (LIKE, all rows)", "/api/orders?q=11&limit=25"],
  ["orders value-desc, page 20", "/api/orders?sort=value-desc&limit=25&offset=475"],
  ["orders product-asc, 100", "/api/orders?sort=product-asc&limit=100"],
  ["dashboard/counts", "/api/dashboard/counts"],
  ["dashboard/recent", "/api/dashboard/recent"],
  ["dashboard/stats", "/api/dashboard/stats"],
];

console.log("== orders in-process benchmark ==");
console.log(
  `machine:  bun ${Bun.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} cores, ${new Date().toISOString()}`,
);
console.log(`setup:    ${ORDERS} orders for one user, ${N} calls per endpoint (app.request)\n`);
console.log(`${"endpoint".padEnd(36)} ${"µs/req".padStart(9)} ${"after write".padStart(12)}`);
for (const [name, url, expect] of endpoints) {
  const warm = await time(() => call(url, undefined, expect));
  // Each call preceded by a write (the write's own cost is measured alone and subtracted).
  const cold = /^\/api\/(orders|dashboard)/.test(url) ? url : null;
  let afterWrite = "";
  if (cold) {
    const both = await time(async () => {
      await write();
      await call(cold);
    }, N / 4);
    const w = await time(write, N / 4);
    afterWrite = (both - w).toFixed(1);
  }
  console.log(`${name.padEnd(36)} ${warm.toFixed(1).padStart(9)} ${afterWrite.padStart(12)}`);
}

const sqlite = h.db.$client;
const raw: [string, string][] = [
  ["SQL COUNT(*) of the user's orders", "SELECT COUNT(*) FROM orders WHERE user_id = ?1"],
  [
    "SQL page of 10 rows (newest)",
    "SELECT * FROM orders WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 10",
  ],
  [
    "SQL SUM(value_cents) not Canceled",
    "SELECT SUM(value_cents), COUNT(value_cents) FROM orders WHERE user_id = ?1 AND status <> 'Canceled'",
  ],
];
console.log("");
for (const [name, text] of raw) {
  const st = sqlite.query(text);
  console.log(`${name.padEnd(36)} ${(await time(() => st.all(u.userid))).toFixed(1).padStart(9)}`);
}
console.log(`\n(PUT /api/orders/1 alone: ${(await time(write, N / 4)).toFixed(1)} µs)`);

// A trigram search that matches every one of a user's 10,000 orders: a second user whose product
// names all contain "Vine" (the first user's names never do).
const v = await h.register("vine@example.com", "benchpass", "Vine");
const insertVine = h.db.$client.prepare(
  "INSERT INTO orders (user_id, product_name, status, created_at, updated_at) VALUES (?,?,?,?,?)",
);
const yearAgo = Date.now() - 365 * 86_400_000;
h.db.$client.transaction(() => {
  for (let i = 0; i < ORDERS; i++) {
    const created = new Date(yearAgo + ((i * 7919) % 365) * 86_400_000).toISOString();
    insertVine.run(v.userid, `Vine Widget ${i}`, i % 2 ? "Shipped" : "Received", created, created);
  }
})();
const vineHeaders = { authorization: `Bearer ${v.token}` };
const vine = async () => {
  const res = await h.app.request("/api/orders?q=vine&limit=25", { headers: vineHeaders });
  await res.arrayBuffer();
  if (res.headers.get("x-total-count") !== String(ORDERS)) throw new Error("vine: wrong total");
};
console.log(
  `\n${"search 'vine' (all 10,000 of user 2)".padEnd(36)} ${(await time(vine)).toFixed(1).padStart(9)}`,
);
await h.close();
