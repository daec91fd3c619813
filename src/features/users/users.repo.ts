import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";

export function createUsersRepo(db: Db) {
  return {
    findById: (id: number): UserRow | undefined =>
      db.select().from(users).where(eq(users.id, id)).get(),
    findByEmail: (email: string): UserRow | undefined =>
      db.select().from(users).where(eq(users.email, email)).get(),
    count: (): number => db.select({ n: count() }).from(users).get()?.n ?? 0,
    insert: (row: { email: string; displayname: string; passwordHash: string }): UserRow =>
      db.insert(users).values(row).returning().get(),
    update: (
      id: number,
      patch: Partial<Pick<UserRow, "email" | "displayname" | "passwordHash" | "timezone">>,
    ): UserRow | undefined =>
      db
        .update(users)
        .set({ ...patch, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` })
        .where(eq(users.id, id))
        .returning()
        .get(),
    delete: (id: number): void => {
      db.delete(users).where(eq(users.id, id)).run();
    },
  };
}
export type UsersRepo = ReturnType<typeof createUsersRepo>;
