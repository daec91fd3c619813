/** The database schema. Only repos (features/<name>/<name>.repo.ts) import from here. */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Stored lower-cased and trimmed; unique. */
  email: text("email").notNull().unique(),
  displayname: text("displayname").notNull(),
  passwordHash: text("password_hash").notNull(),
  /** IANA zone saved from the browser or the tracking preferences; null until saved. */
  timezone: text("timezone"),
  createdAt: text("created_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the bearer token, hex: the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
