/**
 * The floor under the backfill's database work (not a test):
 *
 *   bun run bench/order-writes.bench.ts [--messages N --runs R]
 *
 * What a backfill of N Amazon messages (default 5,000; 3 order confirmations : 1 shipped :
 * 1 delivered, as bench/backfill.bench.ts seeds them) must write at the least, with nothing else:
 * a ledger row per message, an INSERT per new order and an UPDATE per shipped/delivered mail,
 * through bun:sqlite statements prepared once, in transactions of 15 messages (the mailbox's fetch
 * batch), on a fresh database with the app's migrations (every index of orders and the trigram
 * search index). No parsing, no reading, no look-ups, no events. Median of R runs (default 3),
 * each on a new file. Prints the time and µs per message; no target (a figure to compare the
 * backfill with).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, openDatabase } from "../src/db/client.ts";
import { intArg } from "./support/bench-utils.ts";

const MESSAGES = intArg("--messages", 5000, 5);
const RUNS = intArg("--runs", 3, 1);
const BATCH = 15;
const MIGRATIONS = path.resolve(import.meta.dir, "..", "migrations");

function run(): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-bench-writes-"));
  const db = openDatabase(path.join(dir, "app.db"), MIGRATIONS);
  const s = db.$client;
  try {
    s.run(
      "INSERT INTO users (email, displayname, password_hash) VALUES ('b@example.com', 'B', 'x')",
    );
    const ledger = s.prepare(
      `INSERT INTO processed_messages (user_id, message_key, outcome, kind, orders_created,
         orders_updated, processed_at) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6)`,
    );
    const insert = s.prepare(
      `INSERT INTO orders (user_id, amazon_order_number, product_name, product_url, product_image,
         asin, ship_to_address, estimated_retail_value, value_cents, expected_delivery_date,
         expected_delivery_date_text, expected_delivery_estimated, date_ordered, status,
         created_at, updated_at)
       VALUES (1, ?1, ?2, ?3, ?4, ?5, 'Jane Doe, SPRINGFIELD, IL', '0.00', 0, '2025-01-17',
         'Arriving Friday, January 17', 1, ?6, 'Ordered', ?6, ?6) RETURNING id`,
    );
    const update = s.prepare(
      `UPDATE orders SET status = ?2, tracking_number = ?3, carrier = ?4, date_delivered = ?5,
         updated_at = ?6 WHERE id = ?1 AND user_id = 1 RETURNING id`,
    );
    const ids: number[] = [];
    const t0 = performance.now();
    for (let start = 0; start < MESSAGES; start += BATCH) {
      s.transaction(() => {
        for (let a = start; a < Math.min(start + BATCH, MESSAGES); a++) {
          const now = new Date().toISOString();
          const r = a % 5;
          const id = Math.floor(a / 5) * 3 + (r < 3 ? r : r - 3);
          const asin = `B0${id.toString(36).toUpperCase().padStart(8, "0")}`;
          if (r < 3) {
            const row = insert.get(
              `114-${1_000_000 + id}-${id}`,
              `Desk Lamp ${id}, LED, Dimmable, with USB Charging Port`,
              `https://www.amazon.com/dp/${asin}`,
              `https://m.media-amazon.com/images/I/${asin}.jpg`,
              asin,
              now,
            ) as { id: number };
            ids[id] = row.id;
            ledger.run(`m-${a}`, "created", "ordered", 1, 0, now);
          } else {
            const shipped = r === 3;
            update.get(
              ids[id] ?? 0,
              shipped ? "Shipped" : "Received",
              shipped ? `TBA${300_000_000_000 + id}` : null,
              shipped ? "Amazon" : null,
              shipped ? null : now,
              now,
            );
            ledger.run(`m-${a}`, "updated", shipped ? "shipped" : "delivered", 0, 1, now);
          }
        }
      })();
    }
    return performance.now() - t0;
  } finally {
    closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const times: number[] = [];
for (let i = 0; i < RUNS; i++) times.push(run());
const median = [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)]!;
console.log("== order writes alone (the backfill's database floor) ==");
console.log(`command:  bun run bench/order-writes.bench.ts --messages ${MESSAGES} --runs ${RUNS}`);
console.log(
  `machine:  ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, bun ${Bun.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `writes:   ${MESSAGES} messages (${Math.ceil((MESSAGES * 3) / 5)} inserts, ${Math.floor((MESSAGES * 2) / 5)} updates, ${MESSAGES} ledger rows) in transactions of ${BATCH}: ${(median / 1000).toFixed(2)} s median of ${times.map((t) => (t / 1000).toFixed(2)).join(", ")} s (${((median * 1000) / MESSAGES).toFixed(0)} µs per message)`,
);
fs.mkdirSync(path.join(import.meta.dir, "out"), { recursive: true });
fs.writeFileSync(
  path.join(import.meta.dir, "out", "order-writes.json"),
  JSON.stringify(
    { messages: MESSAGES, runs: times.map((t) => +t.toFixed(1)), medianMs: +median.toFixed(1) },
    null,
    2,
  ),
);
