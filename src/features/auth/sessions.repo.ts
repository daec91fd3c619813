import { and, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type SessionRow, sessions } from "../../db/schema.ts";

export function createSessionsRepo(db: Db) {
  return {
    insert: (row: typeof sessions.$inferInsert): void => {
      db.insert(sessions).values(row).run();
    },
    findById: (id: string): SessionRow | undefined =>
      db.select().from(sessions).where(eq(sessions.id, id)).get(),
    listForUser: (userId: number): SessionRow[] =>
      db.select().from(sessions).where(eq(sessions.userId, userId)).all(),
    touch: (id: string, lastUsedAt: string, expiresAt: string): void => {
      db.update(sessions).set({ lastUsedAt, expiresAt }).where(eq(sessions.id, id)).run();
    },
    delete: (id: string): void => {
      db.delete(sessions).where(eq(sessions.id, id)).run();
    },
    deleteOthers: (userId: number, keepId: string): void => {
      db.delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
        .run();
    },
    deleteExpired: (nowIso: string): number =>
      db.$client.query("DELETE FROM sessions WHERE expires_at < ?").run(nowIso).changes,
  };
}
export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
