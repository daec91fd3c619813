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
  | "id"
  | "createdAt"
  | "updatedAt"
  | "failingSince"
  | "pausedAt"
  | "pausedReason"
  | "pausedReasonContent"
>;
export type NewOutboxRow = Pick<
  AlertOutboxRow,
  "channelId" | "event" | "title" | "message" | "orderJson" | "quiet" | "nextAttemptAt"
>;

const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** What a new alert needs of a channel (the hot path of notify(): a prepared statement). */
export type ChannelForAlert = Pick<AlertChannelRow, "id" | "events" | "quietStart" | "quietEnd">;

export function createAlertsRepo(db: Db) {
  // notify() runs these for every notification: bun:sqlite statements prepared once (a drizzle
  // query built per call cost ~10x more: bench/alerts-notify.bench.ts).
  const forAlert = db.$client.prepare<ChannelForAlert, [number]>(
    `SELECT id, events, quiet_start AS quietStart, quiet_end AS quietEnd FROM alert_channels
     WHERE user_id = ?1 AND enabled = 1 AND paused_at IS NULL`,
  );
  const queue = db.$client.prepare<
    unknown,
    [number, string, string, string, string | null, number, string]
  >(
    `INSERT INTO alert_outbox (channel_id, event, title, message, order_json, quiet, next_attempt_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
  );
  const language = db.$client.prepare<{ language: string | null }, [number]>(
    "SELECT language FROM users WHERE id = ?1",
  );
  const owned = (userId: number, id: number) =>
    and(eq(alertChannels.id, id), eq(alertChannels.userId, userId));
  return {
    /** The user's saved language (null when none is: English); alerts are written in it. */
    languageOf: (userId: number): string | null => language.get(userId)?.language ?? null,
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
    channelsForAlert: (userId: number): ChannelForAlert[] => forAlert.all(userId),
    /** Queues alerts (no answer: the hot path). */
    queue: (rows: NewOutboxRow[]) => {
      for (const r of rows) {
        queue.run(
          r.channelId,
          r.event,
          r.title,
          r.message,
          r.orderJson,
          r.quiet ? 1 : 0,
          r.nextAttemptAt,
        );
      }
    },

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
    failPending: (
      channelId: number,
      result: { result: string; resultContent: string },
      nowIso: string,
    ) =>
      db
        .update(alertOutbox)
        .set({ status: "failed", ...result, finishedAt: nowIso })
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
