/** The review_settings table: one row per user, or none (the user keeps the defaults). */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type ReviewSettingsRow, reviewSettings } from "../../db/schema.ts";

export type ReviewSettingsValues = Omit<ReviewSettingsRow, "userId" | "updatedAt">;

export function createReviewSettingsRepo(db: Db) {
  return {
    find: (userId: number): ReviewSettingsRow | undefined =>
      db.select().from(reviewSettings).where(eq(reviewSettings.userId, userId)).get(),
    /** Inserts the user's row or replaces all of its values. */
    upsert: (userId: number, values: ReviewSettingsValues): ReviewSettingsRow =>
      db
        .insert(reviewSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: reviewSettings.userId,
          set: { ...values, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` },
        })
        .returning()
        .get(),
  };
}
export type ReviewSettingsRepo = ReturnType<typeof createReviewSettingsRepo>;
