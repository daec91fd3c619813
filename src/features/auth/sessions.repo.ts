/**
 * Session rows. The lookups every authenticated request makes (findById, touch, delete) are
 * bun:sqlite statements prepared once here: building a drizzle query per call cost ~30 µs each.
 */
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type SessionRow, sessions } from "../../db/schema.ts";

/** The columns of SessionRow, named and ordered as drizzle's select() returns them. */
const SESSION_COLUMNS = `id, user_id AS userId, created_at AS createdAt, last_used_at AS lastUsedAt,
  expires_at AS expiresAt, user_agent AS userAgent, ip`;

export function createSessionsRepo(db: Db) {
  const byId = db.$client.prepare<SessionRow, [string]>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?1`,
  );
  const touchStmt = db.$client.prepare<unknown, [string, string, string]>(
    "UPDATE sessions SET last_used_at = ?2, expires_at = ?3 WHERE id = ?1",
  );
  const liveIds = db.$client.prepare<{ id: string }, [number, string]>(
    "SELECT id FROM sessions WHERE user_id = ?1 AND expires_at > ?2",
  );
  const deleteStmt = db.$client.prepare<unknown, [string]>("DELETE FROM sessions WHERE id = ?1");

  return {
    insert: (row: typeof sessions.$inferInsert): void => {
      db.insert(sessions).values(row).run();
    },
    findById: (id: string): SessionRow | undefined => byId.get(id) ?? undefined,
    /** The ids of the user's sessions that have not expired (media links are tied to one). */
    liveIdsForUser: (userId: number, nowIso: string): string[] =>
      liveIds.all(userId, nowIso).map((r) => r.id),
    listForUser: (userId: number): SessionRow[] =>
      db.select().from(sessions).where(eq(sessions.userId, userId)).all(),
    touch: (id: string, lastUsedAt: string, expiresAt: string): void => {
      touchStmt.run(id, lastUsedAt, expiresAt);
    },
    delete: (id: string): void => {
      deleteStmt.run(id);
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
