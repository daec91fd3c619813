/**
 * The connected mailbox of each user (mailbox_accounts), where reading stopped in each folder
 * (mail_folder_state) and the "Process Old Emails" backfills (mail_backfills).
 */
import { and, eq, sql } from "drizzle-orm";
import type { MailFolder } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";
import {
  type MailboxAccountRow,
  mailBackfills,
  mailboxAccounts,
  mailFolderState,
} from "../../db/schema.ts";
import type { FolderState } from "../../mail/imap/ports.ts";

const nowSql = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export type BackfillRow = typeof mailBackfills.$inferSelect;

function parseFolders(json: string | null): MailFolder[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    if (!Array.isArray(v)) return [];
    return v
      .filter(
        (f): f is MailFolder =>
          f !== null && typeof f === "object" && typeof (f as MailFolder).path === "string",
      )
      .map((f) => ({
        name: String(f.name ?? f.path),
        path: f.path,
        specialUse: typeof f.specialUse === "string" ? f.specialUse : null,
      }));
  } catch {
    return [];
  }
}

export function createMailboxRepo(db: Db) {
  /** The backfill's progress, written often during a backfill: prepared once. */
  const backfillProgressStmt = db.$client.prepare<unknown, [number, number]>(
    "UPDATE mail_backfills SET done_through_uid = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE user_id = ?1",
  );

  const findAccount = (userId: number): MailboxAccountRow | undefined =>
    db.select().from(mailboxAccounts).where(eq(mailboxAccounts.userId, userId)).get();

  return {
    findAccount,

    /** Users whose mailbox is connected with usable credentials (supervisors at boot). */
    connectedUserIds: (): number[] =>
      db
        .select({ id: mailboxAccounts.userId })
        .from(mailboxAccounts)
        .where(and(eq(mailboxAccounts.isConnected, true), eq(mailboxAccounts.authState, "ok")))
        .all()
        .map((r) => r.id),

    /** Creates or replaces the account's connection (credentials, address, folder settings). */
    saveConnection(
      userId: number,
      row: {
        authType: "app-password" | "oauth";
        emailAddress: string;
        secretEnc: string;
        selectedFolder: string;
        processedFolder: string | null;
        markProcessedAsRead: boolean;
        folders: MailFolder[] | null;
        lastFolderRefresh: string | null;
      },
    ): MailboxAccountRow {
      const values = {
        provider: "gmail",
        authType: row.authType,
        emailAddress: row.emailAddress,
        secretEnc: row.secretEnc,
        authState: "ok",
        isConnected: true,
        selectedFolder: row.selectedFolder,
        processedFolder: row.processedFolder,
        markProcessedAsRead: row.markProcessedAsRead,
        foldersJson: row.folders ? JSON.stringify(row.folders) : null,
        lastFolderRefresh: row.lastFolderRefresh,
      };
      return db
        .insert(mailboxAccounts)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: mailboxAccounts.userId,
          set: { ...values, updatedAt: nowSql },
        })
        .returning()
        .get();
    },

    folders: (account: MailboxAccountRow): MailFolder[] => parseFolders(account.foldersJson),

    saveFolders(userId: number, folders: MailFolder[], refreshedAt: string) {
      db.update(mailboxAccounts)
        .set({
          foldersJson: JSON.stringify(folders),
          lastFolderRefresh: refreshedAt,
          updatedAt: nowSql,
        })
        .where(eq(mailboxAccounts.userId, userId))
        .run();
    },

    saveFolderSettings(
      userId: number,
      s: { selectedFolder: string; processedFolder: string | null; markProcessedAsRead: boolean },
    ) {
      db.update(mailboxAccounts)
        .set({ ...s, updatedAt: nowSql })
        .where(eq(mailboxAccounts.userId, userId))
        .run();
    },

    /** Disconnect: the secret is gone, the settings stay for a later reconnect. */
    disconnect(userId: number) {
      db.transaction((tx) => {
        tx.update(mailboxAccounts)
          .set({ isConnected: false, secretEnc: null, updatedAt: nowSql })
          .where(eq(mailboxAccounts.userId, userId))
          .run();
        tx.delete(mailFolderState).where(eq(mailFolderState.userId, userId)).run();
        tx.delete(mailBackfills).where(eq(mailBackfills.userId, userId)).run();
      });
    },

    /** The server refused the credentials: "Email Authorization Expired" (docs/screens.md, docs/behaviour.md#states-and-transitions). */
    markExpired(userId: number) {
      db.update(mailboxAccounts)
        .set({ isConnected: false, authState: "expired", secretEnc: null, updatedAt: nowSql })
        .where(eq(mailboxAccounts.userId, userId))
        .run();
    },

    // Folder state -------------------------------------------------------------------------

    getFolderState(userId: number, folder: string): FolderState | null {
      const r = db
        .select()
        .from(mailFolderState)
        .where(and(eq(mailFolderState.userId, userId), eq(mailFolderState.folder, folder)))
        .get();
      return r ? { uidValidity: r.uidValidity, lastUid: r.lastUid, updatedAt: r.updatedAt } : null;
    },

    setFolderState(userId: number, folder: string, uidValidity: number, lastUid: number) {
      db.insert(mailFolderState)
        .values({ userId, folder, uidValidity, lastUid })
        .onConflictDoUpdate({
          target: [mailFolderState.userId, mailFolderState.folder],
          set: { uidValidity, lastUid, updatedAt: nowSql },
        })
        .run();
    },

    clearFolderState(userId: number) {
      db.delete(mailFolderState).where(eq(mailFolderState.userId, userId)).run();
    },

    // Backfills ----------------------------------------------------------------------------

    getBackfill: (userId: number): BackfillRow | undefined =>
      db.select().from(mailBackfills).where(eq(mailBackfills.userId, userId)).get(),

    runningBackfillUserIds: (): number[] =>
      db
        .select({ id: mailBackfills.userId })
        .from(mailBackfills)
        .where(eq(mailBackfills.status, "running"))
        .all()
        .map((r) => r.id),

    /** A new backfill replaces the previous one of the user. */
    startBackfill(userId: number, folder: string, sinceDate: string): BackfillRow {
      const values = {
        folder,
        sinceDate,
        doneThroughUid: 0,
        uidValidity: null,
        status: "running",
      };
      return db
        .insert(mailBackfills)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: mailBackfills.userId,
          set: { ...values, startedAt: nowSql, updatedAt: nowSql },
        })
        .returning()
        .get();
    },

    updateBackfill(
      userId: number,
      patch: Partial<Pick<BackfillRow, "doneThroughUid" | "uidValidity" | "status">>,
    ) {
      db.update(mailBackfills)
        .set({ ...patch, updatedAt: nowSql })
        .where(eq(mailBackfills.userId, userId))
        .run();
    },

    /** Same as updateBackfill(userId, { doneThroughUid }), with a prepared statement. */
    setBackfillProgress(userId: number, doneThroughUid: number) {
      backfillProgressStmt.run(userId, doneThroughUid);
    },

    deleteBackfill(userId: number) {
      db.delete(mailBackfills).where(eq(mailBackfills.userId, userId)).run();
    },
  };
}
export type MailboxRepo = ReturnType<typeof createMailboxRepo>;
