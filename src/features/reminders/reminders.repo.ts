/** Queries for the review reminders (reminders.service.ts): candidate orders across all users, and sent reminders. */
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { orders, reminders, users } from "../../db/schema.ts";

export type ReminderCandidate = {
  orderId: number;
  userId: number;
  productName: string;
  /** The date the age is counted from (delivered, or review rejected): ISO date or date-time. */
  date: string;
  /** The user's IANA zone, or null when none is saved. */
  timezone: string | null;
  /** Reminder kinds already recorded for this order, e.g. ["received-14"]. */
  sentKinds: string[];
};

export function createRemindersRepo(db: Db) {
  return {
    /**
     * Orders in `status` whose `dateField` is set and not after `before` (an ISO instant; a
     * date-only value sorts before any instant of the same day), without a `finalKind` reminder.
     */
    candidates(q: {
      status: string;
      dateField: "dateDelivered" | "dateReviewRejected";
      before: string;
      finalKind: string;
    }): ReminderCandidate[] {
      const dateCol = orders[q.dateField];
      const rows = db
        .select({
          orderId: orders.id,
          userId: orders.userId,
          productName: orders.productName,
          date: sql<string>`${dateCol}`,
          timezone: users.timezone,
          sent: sql<
            string | null
          >`(SELECT group_concat(${reminders.kind}, ',') FROM ${reminders} WHERE ${reminders.orderId} = ${orders.id})`,
        })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(
          and(
            eq(orders.status, q.status),
            isNotNull(dateCol),
            lte(dateCol, q.before),
            sql`NOT EXISTS (SELECT 1 FROM ${reminders} WHERE ${reminders.orderId} = ${orders.id} AND ${reminders.kind} = ${q.finalKind})`,
          ),
        )
        .orderBy(orders.id)
        .all();
      return rows.map(({ sent, ...r }) => ({ ...r, sentKinds: sent ? sent.split(",") : [] }));
    },

    /** Records a reminder; false when it was recorded already (then nothing is sent). */
    claim(orderId: number, kind: string, sentAt: string): boolean {
      return (
        db
          .insert(reminders)
          .values({ orderId, kind, sentAt })
          .onConflictDoNothing()
          .returning({ orderId: reminders.orderId })
          .all().length > 0
      );
    },

    /** Runs fn in one SQLite transaction (rolled back if it throws). */
    inTransaction<T>(fn: () => T): T {
      return db.transaction(() => fn());
    },

    listForOrder(orderId: number): { kind: string; sentAt: string }[] {
      return db
        .select({ kind: reminders.kind, sentAt: reminders.sentAt })
        .from(reminders)
        .where(eq(reminders.orderId, orderId))
        .all();
    },
  };
}
export type RemindersRepo = ReturnType<typeof createRemindersRepo>;
