/**
 * Queries of the mail pipeline: the processed-message ledger, the per-user mail counters and the
 * read-only order look-ups that match a message to orders. Order WRITES go through the orders
 * service, never through here.
 */
import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailStats, type OrderRow, processedMessages } from "../../db/schema.ts";
import { type RawOrderRow, ROW_COLUMNS, toRows } from "../orders/order-model.ts";

export type LedgerRow = typeof processedMessages.$inferSelect;
export type NewLedgerRow = Omit<typeof processedMessages.$inferInsert, "processedAt"> & {
  processedAt: string;
};
export type ImportMode = "vine" | "all";

export function createIngestRepo(db: Db) {
  // Every statement of the per-message path is prepared once: a statement prepared per call
  // lives in native memory until the garbage collector finalises it, which made a large import
  // grow by tens of megabytes.
  const findLedger = db
    .select()
    .from(processedMessages)
    .where(
      and(
        eq(processedMessages.userId, sql.placeholder("user")),
        eq(processedMessages.messageKey, sql.placeholder("key")),
      ),
    )
    .prepare();
  const insertLedger = db.$client.query<
    unknown,
    {
      user: number;
      key: string;
      outcome: string;
      reason: string | null;
      kind: string | null;
      created: number;
      updated: number;
      at: string;
      limited: number;
      mailDate: string | null;
      version: number;
      unread: string | null;
    }
  >(
    `INSERT INTO processed_messages (user_id, message_key, outcome, reason, kind, orders_created,
       orders_updated, processed_at, mode_limited, mail_date, reader_version, unread)
     VALUES ($user, $key, $outcome, $reason, $kind, $created, $updated, $at, $limited, $mailDate,
       $version, $unread)
     ON CONFLICT (user_id, message_key) DO NOTHING`,
  );
  const forgetLedger = db.$client.query<unknown, { user: number; key: string }>(
    "DELETE FROM processed_messages WHERE user_id = $user AND message_key = $key",
  );
  const limitedStmt = db.$client.query<{ n: number; oldest: string | null }, { user: number }>(
    `SELECT count(*) AS n, min(mail_date) AS oldest FROM processed_messages
     WHERE user_id = $user AND mode_limited = 1`,
  );
  // Messages a newer reader reads again (see `rereadDue`): not understood, or read incompletely.
  const rereadStmt = db.$client.query<
    { n: number; oldest: string | null; undated: number },
    { user: number; version: number }
  >(
    `SELECT count(*) AS n, min(mail_date) AS oldest,
       coalesce(sum(mail_date IS NULL), 0) AS undated FROM processed_messages
     WHERE user_id = $user AND reader_version < $version
       AND (reason = 'not-understood' OR unread IS NOT NULL)`,
  );
  const bumpStmt = db.$client.query<unknown, { user: number; now: string }>(
    `INSERT INTO mail_stats (user_id, emails_scanned, last_processed_time) VALUES ($user, 1, $now)
     ON CONFLICT(user_id) DO UPDATE SET emails_scanned = emails_scanned + 1,
       last_processed_time = excluded.last_processed_time`,
  );
  const statsStmt = db
    .select()
    .from(mailStats)
    .where(eq(mailStats.userId, sql.placeholder("user")))
    .prepare();
  // Read as OrderRows straight from SQLite (the orders repo's column list): drizzle's select and
  // its row mapping cost more than the query.
  const byNumberStmt = db.$client.query<RawOrderRow, [number, string]>(
    `SELECT ${ROW_COLUMNS} FROM orders WHERE user_id = ?1 AND amazon_order_number = ?2 ORDER BY id`,
  );
  const unnumberedByAsinStmt = db.$client.query<RawOrderRow, [number, string]>(
    `SELECT ${ROW_COLUMNS} FROM orders
     WHERE user_id = ?1 AND amazon_order_number IS NULL AND upper(asin) = ?2 ORDER BY id`,
  );

  const learnMarketplaceStmt = db.$client.query<unknown, [string, number]>(
    "UPDATE users SET vine_marketplace = ?1 WHERE id = ?2 AND vine_marketplace IS NULL",
  );

  return {
    /** Sets the user's Vine marketplace from their mail when they have none yet. */
    learnVineMarketplace: (userId: number, marketplace: string): void => {
      learnMarketplaceStmt.run(marketplace, userId);
    },

    /** The ledger entry of a message, when it was processed before. */
    findProcessed: (userId: number, messageKey: string): LedgerRow | undefined =>
      findLedger.get({ user: userId, key: messageKey }),

    /** Writes the ledger entry; false when the key was there already (nothing is overwritten). */
    recordProcessed: (row: NewLedgerRow): boolean =>
      insertLedger.run({
        user: row.userId,
        key: row.messageKey,
        outcome: row.outcome,
        reason: row.reason ?? null,
        kind: row.kind ?? null,
        created: row.ordersCreated ?? 0,
        updated: row.ordersUpdated ?? 0,
        at: row.processedAt,
        limited: row.modeLimited ? 1 : 0,
        mailDate: row.mailDate ?? null,
        version: row.readerVersion ?? 1,
        unread: row.unread ?? null,
      }).changes > 0,

    /** Removes a ledger entry (a message about to be read again); false when there was none. */
    forgetProcessed: (userId: number, messageKey: string): boolean =>
      forgetLedger.run({ user: userId, key: messageKey }).changes > 0,

    /** How many messages the import mode kept out, and the oldest one's date (ISO) if known. */
    modeLimited: (userId: number): { messages: number; oldestMailDate: string | null } => {
      const row = limitedStmt.get({ user: userId });
      return { messages: row?.n ?? 0, oldestMailDate: row?.oldest ?? null };
    },

    /**
     * Messages recorded by a reader older than `version` as not understood or read incompletely:
     * how many, the oldest one's date (ISO) and how many have no date.
     */
    rereadDue: (
      userId: number,
      version: number,
    ): { messages: number; oldestMailDate: string | null; undated: number } => {
      const row = rereadStmt.get({ user: userId, version });
      return {
        messages: row?.n ?? 0,
        oldestMailDate: row?.oldest ?? null,
        undated: row?.undated ?? 0,
      };
    },

    /** The reader version the user's mailbox was last re-read for (1 when never). */
    mailboxRereadVersion: (userId: number): number =>
      statsStmt.get({ user: userId })?.mailboxRereadVersion ?? 1,

    setMailboxRereadVersion: (userId: number, version: number): void => {
      db.insert(mailStats)
        .values({ userId, mailboxRereadVersion: version })
        .onConflictDoUpdate({ target: mailStats.userId, set: { mailboxRereadVersion: version } })
        .run();
    },

    /** emails_scanned + 1 and last_processed_time = now, creating the row on first use. */
    countScanned: (userId: number, nowIso: string): void => {
      bumpStmt.run({ user: userId, now: nowIso });
    },

    stats: (
      userId: number,
    ): { emailsScanned: number; lastProcessedTime: string | null; importMode: ImportMode } => {
      const row = statsStmt.get({ user: userId });
      return {
        emailsScanned: row?.emailsScanned ?? 0,
        lastProcessedTime: row?.lastProcessedTime ?? null,
        importMode: row?.importMode === "all" ? "all" : "vine",
      };
    },

    setImportMode: (userId: number, mode: ImportMode): void => {
      db.insert(mailStats)
        .values({ userId, importMode: mode })
        .onConflictDoUpdate({ target: mailStats.userId, set: { importMode: mode } })
        .run();
    },

    /** Ledger totals by outcome, for the export. */
    ledgerCounts: (userId: number): Record<string, number> => {
      const rows = db
        .select({ outcome: processedMessages.outcome, n: count() })
        .from(processedMessages)
        .where(eq(processedMessages.userId, userId))
        .groupBy(processedMessages.outcome)
        .all();
      return Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
    },

    /** The user's orders with this Amazon order number, oldest first. */
    ordersByNumber: (userId: number, orderNumber: string): OrderRow[] =>
      toRows(byNumberStmt.all(userId, orderNumber)),

    /** Orders entered by hand (no order number) with this ASIN (any case), oldest first. */
    unnumberedByAsin: (userId: number, asin: string): OrderRow[] =>
      toRows(unnumberedByAsinStmt.all(userId, asin.toUpperCase())),

    /** Runs fn in one SQLite transaction (synchronous: nothing else interleaves). */
    transaction: <T>(fn: () => T): T => db.$client.transaction(fn)(),
  };
}
export type IngestRepo = ReturnType<typeof createIngestRepo>;
