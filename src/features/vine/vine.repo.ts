/**
 * Vine standing's queries: the vine_settings row, and the few order columns the standing and the
 * ETV export read. Order writes go through the orders repo (its cache must see them).
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type VineSettingsRow, vineSettings } from "../../db/schema.ts";
import { type RawOrderRow, ROW_COLUMNS, toRows } from "../orders/order-model.ts";

export type VineSettingsValues = Omit<VineSettingsRow, "userId" | "updatedAt">;

/** What the standing needs of each order. */
export type StandingRow = {
  id: number;
  dateOrdered: string | null;
  /** The Date of the mail that created the order (null: typed or imported from a report). */
  mailDate: string | null;
  createdAt: string;
  status: string;
  reviewExempt: number;
  dateReviewSubmitted: string | null;
  valueCents: number | null;
  currency: string;
};

/** What the ETV export needs of each order. */
export type EtvRow = StandingRow & {
  amazonOrderNumber: string | null;
  asin: string | null;
  productName: string;
  estimatedRetailValue: string | null;
};

export function createVineRepo(db: Db) {
  const sqlite = db.$client;
  const standingStmt = sqlite.prepare<StandingRow, [number]>(
    `SELECT id, date_ordered AS dateOrdered, mail_date AS mailDate, created_at AS createdAt, status,
       review_exempt AS reviewExempt, date_review_submitted AS dateReviewSubmitted,
       value_cents AS valueCents, currency
     FROM orders WHERE user_id = ?1`,
  );
  const etvStmt = sqlite.prepare<EtvRow, [number]>(
    `SELECT id, date_ordered AS dateOrdered, mail_date AS mailDate, created_at AS createdAt, status,
       review_exempt AS reviewExempt, date_review_submitted AS dateReviewSubmitted,
       value_cents AS valueCents, currency, amazon_order_number AS amazonOrderNumber, asin,
       product_name AS productName, estimated_retail_value AS estimatedRetailValue
     FROM orders WHERE user_id = ?1 ORDER BY COALESCE(date_ordered, created_at), id`,
  );
  const byNumberStmt = sqlite.prepare<RawOrderRow, [number, string]>(
    `SELECT ${ROW_COLUMNS} FROM orders WHERE user_id = ?1 AND amazon_order_number = ?2 ORDER BY id`,
  );
  return {
    findSettings: (userId: number): VineSettingsRow | undefined =>
      db.select().from(vineSettings).where(eq(vineSettings.userId, userId)).get(),
    upsertSettings: (userId: number, values: VineSettingsValues): VineSettingsRow =>
      db
        .insert(vineSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: vineSettings.userId,
          set: { ...values, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` },
        })
        .returning()
        .get(),
    standingRows: (userId: number): StandingRow[] => standingStmt.all(userId),
    etvRows: (userId: number): EtvRow[] => etvStmt.all(userId),
    /** The user's orders with this Amazon order number. */
    byNumber: (userId: number, orderNumber: string) =>
      toRows(byNumberStmt.all(userId, orderNumber)),
    /** Runs fn in one SQLite transaction (rolled back if it throws). */
    transaction: <T>(fn: () => T): T => sqlite.transaction(fn)(),
  };
}
export type VineRepo = ReturnType<typeof createVineRepo>;
