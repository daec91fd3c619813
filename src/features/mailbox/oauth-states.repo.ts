/** oauth_states: the open Gmail OAuth authorizations (gmail-oauth.service.ts decides). */
import { and, desc, eq, lt, notInArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { oauthStates } from "../../db/schema.ts";

type StateRow = typeof oauthStates.$inferSelect;

export function createOAuthStatesRepo(db: Db) {
  return {
    /**
     * Stores a new state in one transaction: states older than `olderThan` go first, and the user
     * keeps only the newest `keepPerUser`.
     */
    add(row: StateRow, opts: { olderThan: string; keepPerUser: number }) {
      db.transaction((tx) => {
        tx.delete(oauthStates).where(lt(oauthStates.createdAt, opts.olderThan)).run();
        tx.insert(oauthStates).values(row).run();
        const keep = tx
          .select({ state: oauthStates.state })
          .from(oauthStates)
          .where(eq(oauthStates.userId, row.userId))
          .orderBy(desc(oauthStates.createdAt))
          .limit(opts.keepPerUser)
          .all()
          .map((r) => r.state);
        tx.delete(oauthStates)
          .where(and(eq(oauthStates.userId, row.userId), notInArray(oauthStates.state, keep)))
          .run();
      });
    },
    /** The state's row, deleted as it is read; undefined when unknown. */
    take(state: string): StateRow | undefined {
      return db.delete(oauthStates).where(eq(oauthStates.state, state)).returning().get();
    },
    dropOlderThan(createdBefore: string) {
      db.delete(oauthStates).where(lt(oauthStates.createdAt, createdBefore)).run();
    },
  };
}
export type OAuthStatesRepo = ReturnType<typeof createOAuthStatesRepo>;
