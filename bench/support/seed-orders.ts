/**
 * The orders both order benchmarks seed: `count` orders for one user, statuses, values, dates
 * and delivery estimates spread over the past year, from a fixed pseudo-random sequence so every
 * run measures the same data. Inserted straight into SQLite in one transaction.
 */
import type { Database } from "bun:sqlite";

const STATUSES = [
  "Ordered",
  "Shipped",
  "Received",
  "Review Submitted",
  "Review Approved",
  "Review Rejected",
  "Canceled",
];
const WORDS = [
  "Wireless",
  "Ceramic",
  "Garden",
  "Kitchen",
  "USB-C",
  "Organic",
  "Travel",
  "LED",
  "Steel",
  "Bamboo",
  "Widget",
  "Charger",
  "Lamp",
  "Mug",
  "Cable",
  "Hose",
  "Pillow",
  "Bottle",
];

export function seedOrders(db: Database, userId: number, count: number): void {
  const insert = db.prepare(
    `INSERT INTO orders (user_id, amazon_order_number, product_name, asin, status, estimated_retail_value,
      value_cents, date_ordered, date_delivered, expected_delivery_date, expected_delivery_estimated,
      date_review_submitted, date_review_approved, date_review_rejected, created_at, updated_at)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const day = 86_400_000;
  const start = Date.now() - 365 * day;
  let rnd = 42;
  const rand = () => {
    rnd = (rnd * 1103515245 + 12345) % 2147483648;
    return rnd / 2147483648;
  };
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const status = STATUSES[Math.floor(rand() * STATUSES.length)]!;
      const created = new Date(start + rand() * 365 * day).toISOString();
      const cents = Math.floor(rand() * 30000);
      const iso = (offsetDays: number) =>
        new Date(Date.parse(created) + offsetDays * day).toISOString();
      const name = `${WORDS[Math.floor(rand() * WORDS.length)]} ${WORDS[Math.floor(rand() * WORDS.length)]} ${i}`;
      insert.run(
        userId,
        `11${String(i).padStart(3, "0")}-${Math.floor(rand() * 1e7)}-${Math.floor(rand() * 1e7)}`,
        name,
        `B0${String(i).padStart(8, "0")}`,
        status,
        (cents / 100).toFixed(2),
        cents,
        created,
        ["Received", "Review Submitted", "Review Approved", "Review Rejected"].includes(status)
          ? iso(4)
          : null,
        status === "Shipped" ? iso(5).slice(0, 10) : null,
        status === "Shipped" && rand() < 0.5 ? 1 : 0,
        status.startsWith("Review ") ? iso(10) : null,
        status === "Review Approved" ? iso(12) : null,
        status === "Review Rejected" ? iso(12) : null,
        created,
        created,
      );
    }
  })();
}
