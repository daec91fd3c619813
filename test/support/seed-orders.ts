/**
 * Orders straight into SQLite for tests: rows as a mailbox, a report or an older version left
 * them, without the API's rules (the only way to seed a state the API would refuse, and quicker).
 * Keys are the table's column names (snake_case); a key that is not a column throws. Every row
 * gets a product name, an ASIN and its own created_at a minute after the last unless given, status
 * Ordered, and updated_at = created_at.
 */
import type { Database } from "bun:sqlite";
import { getTableColumns } from "drizzle-orm";
import { orders } from "../../src/db/schema.ts";

export type SeedRow = Record<string, string | number | boolean | null>;

const COLUMN_NAMES = new Set(Object.values(getTableColumns(orders)).map((c) => c.name));
const FIRST_CREATED = Date.UTC(2026, 0, 1);
let seq = 0;

/** Inserts the rows for the user; their ids, in order. */
export function seedOrders(
  db: Database | { $client: Database },
  userId: number,
  rows: SeedRow[],
): number[] {
  const sqlite = "$client" in db ? db.$client : db;
  return rows.map((r) => {
    seq++;
    const row: SeedRow = {
      user_id: userId,
      product_name: `Seeded product ${seq}`,
      asin: `B0SEED${String(seq).padStart(4, "0")}`,
      status: "Ordered",
      created_at: new Date(FIRST_CREATED + seq * 60_000).toISOString(),
      ...r,
    };
    row.updated_at ??= row.created_at ?? null;
    const cols = Object.keys(row);
    for (const c of cols) if (!COLUMN_NAMES.has(c)) throw new Error(`seedOrders: no column ${c}`);
    const res = sqlite
      .query(
        `INSERT INTO orders (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
      )
      .run(...cols.map((c) => (typeof row[c] === "boolean" ? Number(row[c]) : row[c]) ?? null));
    return Number(res.lastInsertRowid);
  });
}

/** One order (see seedOrders); its id. */
export const seedOrder = (
  db: Database | { $client: Database },
  userId: number,
  row: SeedRow = {},
): number => seedOrders(db, userId, [row])[0] ?? 0;
