/** Files of .eml/.mbox imports in progress (mail_imports): queries only. */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailImports } from "../../db/schema.ts";

export type MailImportRow = typeof mailImports.$inferSelect;
const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export function createMailImportRepo(db: Db) {
  return {
    /** One row per file, in upload order; returns their ids. */
    start(userId: number, files: ReadonlyArray<{ name: string; bytes: number }>): number[] {
      return db.transaction((tx) =>
        files.map(
          (f) =>
            tx
              .insert(mailImports)
              .values({ userId, fileName: f.name, fileBytes: f.bytes })
              .returning({ id: mailImports.id })
              .get().id,
        ),
      );
    },
    progress(id: number, messagesRead: number) {
      db.update(mailImports)
        .set({ messagesRead, updatedAt: nowSql })
        .where(eq(mailImports.id, id))
        .run();
    },
    remove(ids: readonly number[]) {
      if (ids.length > 0)
        db.delete(mailImports)
          .where(inArray(mailImports.id, [...ids]))
          .run();
    },
    /** A file read to its end: its row, and rows of earlier imports of the same file, go. */
    finish(id: number, userId: number, fileName: string) {
      db.transaction((tx) => {
        tx.delete(mailImports).where(eq(mailImports.id, id)).run();
        tx.delete(mailImports)
          .where(and(eq(mailImports.userId, userId), eq(mailImports.fileName, fileName)))
          .run();
      });
    },
    listFor(userId: number): MailImportRow[] {
      return db
        .select()
        .from(mailImports)
        .where(eq(mailImports.userId, userId))
        .orderBy(mailImports.id)
        .all();
    },
  };
}
export type MailImportRepo = ReturnType<typeof createMailImportRepo>;
