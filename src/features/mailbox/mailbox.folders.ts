/**
 * The mailbox's folders: the cached list (refreshed from Gmail when empty and older than a day,
 * docs/behaviour.md#constants-and-limits), a refresh on request, and the choice of the monitored
 * and processed-emails folders (checked against the list; the supervisor reopens with them).
 */
import type { EmailSettings, MailFolder } from "../../contract/index.ts";
import type { EventBus } from "../../events/bus.ts";
import type { Logger } from "../../log.ts";
import { listFolders } from "../../mail/imap/client.ts";
import { AppError, badRequest } from "../../util/errors.ts";
import type { MailboxConnections } from "./mailbox.connection.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";
import { requireConnected } from "./mailbox.status.ts";

const FOLDER_REFRESH_MS = 24 * 60 * 60 * 1000;

export function createMailboxFolders(deps: {
  repo: MailboxRepo;
  events: EventBus;
  userLog: (userId: number) => Logger;
  now: () => Date;
  withClient: MailboxConnections["withClient"];
  /** The folder settings changed: the user's supervisor reopens with the new ones. */
  restart: (userId: number) => void;
  /** The settings the answer to a choice carries. */
  emailSettings: (userId: number) => EmailSettings | null;
}) {
  const { repo, events, userLog, now, withClient } = deps;

  async function refreshFolders(userId: number): Promise<MailFolder[]> {
    requireConnected(repo, userId);
    const list = await withClient(userId, "folders", (c) => listFolders(c));
    repo.saveFolders(userId, list, now().toISOString());
    events.publish(userId, "mail-folders.updated");
    return list;
  }

  return {
    /** The cached list; refreshed when connected, empty and older than 24 h (docs/behaviour.md#constants-and-limits). */
    async folders(userId: number): Promise<MailFolder[]> {
      const a = requireConnected(repo, userId);
      const list = repo.folders(a);
      const last = a.lastFolderRefresh ? Date.parse(a.lastFolderRefresh) : Number.NaN;
      const stale = Number.isNaN(last) || now().getTime() - last > FOLDER_REFRESH_MS;
      if (list.length === 0 && stale) {
        try {
          return await refreshFolders(userId);
        } catch (err) {
          if (err instanceof AppError && err.status === 409) throw err;
          userLog(userId).warn({ err: (err as Error).message }, "automatic folder refresh failed");
        }
      }
      return list;
    },

    refreshFolders,

    async selectFolders(
      userId: number,
      body: {
        selectedFolder: string;
        processedFolder?: string | null;
        markProcessedAsRead: boolean;
      },
    ) {
      const a = requireConnected(repo, userId);
      const selected = body.selectedFolder;
      const p = body.processedFolder?.trim();
      const processed = p && p !== "__none__" ? p : null;
      if (processed && processed === selected) {
        throw badRequest("processed_folder_same");
      }
      let list = repo.folders(a);
      const has = (path: string) => list.some((f) => f.path === path);
      if (!has(selected) || (processed && !has(processed))) list = await refreshFolders(userId);
      for (const [path, label] of [
        [selected, "monitor"],
        [processed, "processed-emails"],
      ] as const) {
        if (path && !has(path)) {
          throw badRequest("folder_unknown", { folder: path.slice(0, 100), role: label });
        }
      }
      const changed =
        a.selectedFolder !== selected ||
        a.processedFolder !== processed ||
        a.markProcessedAsRead !== body.markProcessedAsRead;
      repo.saveFolderSettings(userId, {
        selectedFolder: selected,
        processedFolder: processed,
        markProcessedAsRead: body.markProcessedAsRead,
      });
      // The supervisor reads the settings when it opens the folder: reopen with the new ones.
      if (changed) deps.restart(userId);
      events.publish(userId, "mailbox-settings.updated");
      return {
        success: true as const,
        message: "Your folder preferences have been saved successfully.",
        emailSettings: deps.emailSettings(userId),
      };
    },
  };
}
