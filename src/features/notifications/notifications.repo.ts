/** Queries on the notifications table; every read and write is scoped to one user. */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type NotificationRow, notifications, users } from "../../db/schema.ts";

export function createNotificationsRepo(db: Db) {
  const owned = (userId: number, id: number) =>
    and(eq(notifications.id, id), eq(notifications.userId, userId));
  return {
    /** Newest first; `limit` undefined means all of them (the export). */
    listForUser: (userId: number, limit?: number): NotificationRow[] => {
      const q = db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.createdAt), desc(notifications.id));
      return limit === undefined ? q.all() : q.limit(limit).all();
    },
    findOwned: (userId: number, id: number): NotificationRow | undefined =>
      db.select().from(notifications).where(owned(userId, id)).get(),
    /** The user's saved language (null when none is: English). */
    languageOf: (userId: number): string | null =>
      db.select({ language: users.language }).from(users).where(eq(users.id, userId)).get()
        ?.language ?? null,
    insert: (row: {
      userId: number;
      level: string;
      message: string;
      content?: string | null;
    }): NotificationRow => db.insert(notifications).values(row).returning().get(),
    /** Marks one as read; the number of rows that changed (0 when it was read already). */
    markRead: (userId: number, id: number): number =>
      db
        .update(notifications)
        .set({ isRead: true })
        .where(and(owned(userId, id), eq(notifications.isRead, false)))
        .returning({ id: notifications.id })
        .all().length,
    delete: (userId: number, id: number): number =>
      db.delete(notifications).where(owned(userId, id)).returning({ id: notifications.id }).all()
        .length,
    markAllRead: (userId: number): number =>
      db
        .update(notifications)
        .set({ isRead: true })
        .where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
        .returning({ id: notifications.id })
        .all().length,
    deleteAll: (userId: number): number =>
      db
        .delete(notifications)
        .where(eq(notifications.userId, userId))
        .returning({ id: notifications.id })
        .all().length,
  };
}
export type NotificationsRepo = ReturnType<typeof createNotificationsRepo>;
