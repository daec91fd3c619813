/**
 * A pass over new mail in the open folder: the UIDs of Amazon's messages above the last UID seen
 * (tracked with UIDVALIDITY in mail_folder_state), processed by `processUids`.
 */

import type { Logger } from "../../log.ts";
import { storageFault } from "../../util/errors.ts";
import { searchAmazonUids } from "./client.ts";
import { processUids } from "./fetch-batches.ts";
import type { FetchLimits, FolderStateStore, MailIngestPort, SyncFn } from "./ports.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Builds the per-user sync. The first time a folder is seen, watching starts at its current end
 * (older mail is for "Process Old Emails"). After a UIDVALIDITY change, the Amazon mail since the
 * day before the last pass is looked at again; the ledger skips what was processed.
 * A message whose ingest keeps failing is given up after `maxFailures` passes (logged).
 */
export function createMailSync<S>(deps: {
  userId: number;
  store: FolderStateStore;
  ingest: MailIngestPort<S>;
  limits: FetchLimits;
  domains: () => readonly string[];
  log: Logger;
  maxFailures?: number;
  now?: () => Date;
}): SyncFn {
  const { userId, store, log } = deps;
  const maxFailures = deps.maxFailures ?? 3;
  const now = deps.now ?? (() => new Date());
  const failures = new Map<string, number>();

  return async (client, settings, shouldStop) => {
    const mb = client.mailbox;
    if (!mb) throw new Error("No folder is open");
    const folder = mb.path;
    const uidValidity = Number(mb.uidValidity);
    const state = store.get(userId, folder);
    if (!state) {
      store.set(userId, folder, uidValidity, Math.max(0, mb.uidNext - 1));
      log.info({ folder }, "watching a new folder from its current end");
      return;
    }
    let uids: number[];
    if (state.uidValidity !== uidValidity) {
      const last = Date.parse(state.updatedAt);
      const since = new Date((Number.isNaN(last) ? now().getTime() - 7 * DAY_MS : last) - DAY_MS);
      log.warn(
        { folder, was: state.uidValidity, now: uidValidity, since: since.toISOString() },
        "UIDVALIDITY changed: looking at recent Amazon mail again",
      );
      uids = await searchAmazonUids(client, deps.domains(), { since });
      store.set(
        userId,
        folder,
        uidValidity,
        uids.length ? uids[0]! - 1 : Math.max(0, mb.uidNext - 1),
      );
    } else {
      uids = await searchAmazonUids(client, deps.domains(), { afterUid: state.lastUid });
    }
    if (uids.length === 0) return;

    const scan = deps.ingest.beginScan(userId, "imap");
    try {
      const res = await processUids({
        client,
        userId,
        uids,
        ingest: deps.ingest,
        scan,
        limits: deps.limits,
        settings,
        log,
        shouldStop,
        onDone: (uid) => store.set(userId, folder, uidValidity, uid),
      });
      // A full disk or a database locked by another process is the server's fault, not the
      // message's: it is tried again at every pass, never given up (that would lose it).
      if (res.failed && !storageFault(res.failed.error)) {
        const key = `${folder}\u0000${uidValidity}\u0000${res.failed.uid}`;
        const n = (failures.get(key) ?? 0) + 1;
        if (n >= maxFailures) {
          failures.delete(key);
          store.set(userId, folder, uidValidity, res.failed.uid);
          log.error(
            { folder, uid: res.failed.uid, attempts: n, err: res.failed.error },
            "a message failed to ingest again and again: it is left in the folder, unprocessed",
          );
        } else {
          failures.set(key, n);
        }
      }
    } finally {
      await deps.ingest.endScan(scan);
    }
  };
}
