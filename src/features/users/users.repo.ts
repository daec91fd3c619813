/**
 * User rows. findById (every authenticated request) and findByEmail are bun:sqlite statements
 * prepared once: building a drizzle query per call cost ~30 µs.
 */
import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";

/** The columns of UserRow, named and ordered as drizzle's select() returns them. */
const USER_COLUMNS = `id, email, displayname, password_hash AS passwordHash, timezone,
  vine_marketplace AS vineMarketplace, language, created_at AS createdAt, updated_at AS updatedAt`;

export function createUsersRepo(db: Db) {
  const byId = db.$client.prepare<UserRow, [number]>(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = ?1`,
  );
  const byEmail = db.$client.prepare<UserRow, [string]>(
    `SELECT ${USER_COLUMNS} FROM users WHERE email = ?1`,
  );
  return {
    findById: (id: number): UserRow | undefined => byId.get(id) ?? undefined,
    findByEmail: (email: string): UserRow | undefined => byEmail.get(email) ?? undefined,
    count: (): number => db.select({ n: count() }).from(users).get()?.n ?? 0,
    insert: (row: { email: string; displayname: string; passwordHash: string }): UserRow =>
      db.insert(users).values(row).returning().get(),
    update: (
      id: number,
      patch: Partial<
        Pick<
          UserRow,
          "email" | "displayname" | "passwordHash" | "timezone" | "vineMarketplace" | "language"
        >
      >,
    ): UserRow | undefined =>
      db
        .update(users)
        .set({ ...patch, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` })
        .where(eq(users.id, id))
        .returning()
        .get(),
    /** Deletes the user; their orders go by cascade. */
    delete: (id: number): void => {
      db.delete(users).where(eq(users.id, id)).run();
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
