/** Queries on alert_channels, alert_outbox and server_keys; channel reads are scoped to one user. */
import { and, asc, desc, eq, inArray, lte, min, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  type AlertChannelRow,
  type AlertOutboxRow,
  alertChannels,
  alertOutbox,
  serverKeys,
} from "../../db/schema.ts";

export type NewChannel = Omit<
  AlertChannelRow,
  "id" | "createdAt" | "updatedAt" | "failingSince" | "pausedAt" | "pausedReason"
>;
export type NewOutboxRow = Pick<
  AlertOutboxRow,
  "channelId" | "event" | "title" | "message" | "orderJson" | "quiet" | "nextAttemptAt"
>;

const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export function createAlertsRepo(db: Db) {
  const owned = (userId: number, id: number) =>
    and(eq(alertChannels.id, id), eq(alertChannels.userId, userId));
  return {
    transaction: <T>(fn: () => T): T => db.$client.transaction(fn)(),

    listChannels: (userId: number): AlertChannelRow[] =>
      db
        .select()
        .from(alertChannels)
        .where(eq(alertChannels.userId, userId))
        .orderBy(asc(alertChannels.id))
        .all(),
    findChannel: (userId: number, id: number): AlertChannelRow | undefined =>
      db.select().from(alertChannels).where(owned(userId, id)).get(),
    channelById: (id: number): AlertChannelRow | undefined =>
      db.select().from(alertChannels).where(eq(alertChannels.id, id)).get(),
    findDevice: (userId: number, deviceKey: string): AlertChannelRow | undefined =>
      db
        .select()
        .from(alertChannels)
        .where(and(eq(alertChannels.userId, userId), eq(alertChannels.deviceKey, deviceKey)))
        .get(),
    insertChannel: (row: NewChannel): AlertChannelRow =>
      db.insert(alertChannels).values(row).returning().get(),
    updateChannel: (
      id: number,
      patch: Partial<Omit<AlertChannelRow, "id" | "userId" | "type" | "createdAt">>,
    ): AlertChannelRow | undefined =>
      db
        .update(alertChannels)
        .set({ ...patch, updatedAt: nowSql })
        .where(eq(alertChannels.id, id))
        .returning()
        .get(),
    deleteChannel: (userId: number, id: number): number =>
      db.delete(alertChannels).where(owned(userId, id)).returning({ id: alertChannels.id }).all()
        .length,
    /** The user's channels that are on and not paused (candidates for a new alert). */
    activeChannels: (userId: number): AlertChannelRow[] =>
      db
        .select()
        .from(alertChannels)
        .where(
          and(
            eq(alertChannels.userId, userId),
            eq(alertChannels.enabled, true),
            sql`${alertChannels.pausedAt} IS NULL`,
          ),
        )
        .all(),

    insertOutbox: (row: NewOutboxRow): AlertOutboxRow =>
      db.insert(alertOutbox).values(row).returning().get(),
    /** Pending rows due at `nowIso`, oldest first. */
    due: (nowIso: string, limit: number): AlertOutboxRow[] =>
      db
        .select()
        .from(alertOutbox)
        .where(and(eq(alertOutbox.status, "pending"), lte(alertOutbox.nextAttemptAt, nowIso)))
        .orderBy(asc(alertOutbox.nextAttemptAt), asc(alertOutbox.id))
        .limit(limit)
        .all(),
    /** Every pending row of a channel that is due (a quiet-hours batch goes out together). */
    dueForChannel: (channelId: number, nowIso: string): AlertOutboxRow[] =>
      db
        .select()
        .from(alertOutbox)
        .where(
          and(
            eq(alertOutbox.channelId, channelId),
            eq(alertOutbox.status, "pending"),
            lte(alertOutbox.nextAttemptAt, nowIso),
          ),
        )
        .orderBy(asc(alertOutbox.id))
        .all(),
    /** When the next pending row is due (ISO), or null when nothing waits. */
    nextDue: (): string | null =>
      db
        .select({ at: min(alertOutbox.nextAttemptAt) })
        .from(alertOutbox)
        .where(eq(alertOutbox.status, "pending"))
        .get()?.at ?? null,
    updateOutbox: (ids: number[], patch: Partial<Omit<AlertOutboxRow, "id" | "channelId">>) => {
      if (ids.length > 0)
        db.update(alertOutbox).set(patch).where(inArray(alertOutbox.id, ids)).run();
    },
    /** Pending rows of a channel are dropped as failed (the channel was paused). */
    failPending: (channelId: number, result: string, nowIso: string) =>
      db
        .update(alertOutbox)
        .set({ status: "failed", result, finishedAt: nowIso })
        .where(and(eq(alertOutbox.channelId, channelId), eq(alertOutbox.status, "pending")))
        .run(),
    /** The channel's last deliveries, newest first. */
    deliveries: (channelId: number, limit: number): AlertOutboxRow[] =>
      db
        .select()
        .from(alertOutbox)
        .where(eq(alertOutbox.channelId, channelId))
        .orderBy(desc(alertOutbox.id))
        .limit(limit)
        .all(),
    /** Keeps the newest `keep` finished rows of a channel; pending rows are never removed. */
    pruneFinished: (channelId: number, keep: number) => {
      const kept = db
        .select({ id: alertOutbox.id })
        .from(alertOutbox)
        .where(and(eq(alertOutbox.channelId, channelId), sql`${alertOutbox.status} <> 'pending'`))
        .orderBy(desc(alertOutbox.id))
        .limit(keep)
        .all()
        .map((r) => r.id);
      db.delete(alertOutbox)
        .where(
          and(
            eq(alertOutbox.channelId, channelId),
            sql`${alertOutbox.status} <> 'pending'`,
            kept.length > 0 ? notInArray(alertOutbox.id, kept) : sql`1`,
          ),
        )
        .run();
    },

    getKey: (name: string): string | undefined =>
      db.select().from(serverKeys).where(eq(serverKeys.name, name)).get()?.value,
    /** Stores the key unless one exists; answers the stored one (first writer wins). */
    putKeyOnce: (name: string, value: string): string => {
      db.insert(serverKeys).values({ name, value }).onConflictDoNothing().run();
      return db.select().from(serverKeys).where(eq(serverKeys.name, name)).get()?.value ?? value;
    },
  };
}
export type AlertsRepo = ReturnType<typeof createAlertsRepo>;
