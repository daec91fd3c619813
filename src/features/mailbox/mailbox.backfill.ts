/**
 * "Process Old Emails": the backfill runner. One run per user at most, on its own connection,
 * over the Amazon mail of the chosen folder since the chosen day (mail_backfills holds where it
 * is, so a restart resumes it). Messages go through `processUids` like the supervisor's (one
 * FETCH and one transaction per batch, the size cap, mark and move only after commit); a message
 * whose ingest keeps failing is skipped after `backfillRetry.attempts`. A lost connection is
 * retried with the backoff of src/util/backoff.ts (a temporary refusal waits as long as the server
 * asked, and is never given up); refused credentials expire the mailbox. Cancelling (Disconnect,
 * expiry, shutdown) ends a run and its waits at once.
 */

import type { EventBus } from "../../events/bus.ts";
import type { Logger } from "../../log.ts";
import {
  classifyImapError,
  closeImap,
  type ImapEndpoint,
  type ImapError,
  searchAmazonUids,
} from "../../mail/imap/client.ts";
import { processUids } from "../../mail/imap/fetch-batches.ts";
import type { FetchLimits, MailIngestPort } from "../../mail/imap/ports.ts";
import type { SupervisorTimings } from "../../mail/imap/supervisor.ts";
import { atLeast, backoffDelay } from "../../util/backoff.ts";
import type { Scan } from "./ingest.scan.ts";
import type { MailIngestService } from "./ingest.service.ts";
import type { MailboxConnections } from "./mailbox.connection.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";

/** What the mailbox (supervisors and backfills) uses of the ingestion service. */
export type MailboxIngest = MailIngestPort<Scan> &
  Pick<MailIngestService, "stats" | "takeMailboxReread">;

/** A backfill persists its progress (done_through_uid) after this many messages. */
const BACKFILL_PROGRESS_EVERY = 50;

type BackfillRun = { cancelled: boolean; promise: Promise<void>; wake: () => void };

export function createBackfillRunner(deps: {
  repo: MailboxRepo;
  events: EventBus;
  ingest: MailboxIngest;
  log: Logger;
  endpoint: ImapEndpoint;
  connections: Pick<MailboxConnections, "connectFor" | "settingsOf">;
  fetchLimits: FetchLimits;
  timings: SupervisorTimings;
  domains: readonly string[];
  /** A failing message is retried this often before it is skipped, this far apart. */
  backfillRetry: { attempts: number; delayMs: number };
  onAuthFailure: (userId: number, err: ImapError) => void;
  /** A run ended by itself (done, failed, given up; not cancelled, not at shutdown). */
  onEnded?: (userId: number) => void;
}) {
  const { repo, events, timings, domains, backfillRetry, fetchLimits } = deps;
  const backfills = new Map<number, BackfillRun>();
  let stopping = false;
  const userLog = (userId: number) => deps.log.child({ userid: userId });

  function cancel(userId: number) {
    const r = backfills.get(userId);
    if (r) {
      r.cancelled = true;
      r.wake();
    }
  }

  async function backfillOnce(userId: number, run: BackfillRun) {
    const row = repo.getBackfill(userId);
    if (row?.status !== "running") return;
    const settings = deps.connections.settingsOf(userId);
    if (!settings) {
      repo.deleteBackfill(userId);
      return;
    }
    const ulog = userLog(userId).child({ scope: "backfill" });
    const c = await deps.connections.connectFor(userId, "backfill");
    try {
      const lock = await c.getMailboxLock(row.folder);
      try {
        const mb = c.mailbox;
        if (!mb) throw new Error("The folder did not open");
        const uidValidity = Number(mb.uidValidity);
        let doneThrough = row.doneThroughUid;
        if (row.uidValidity !== null && row.uidValidity !== uidValidity) doneThrough = 0;
        repo.updateBackfill(userId, { uidValidity, doneThroughUid: doneThrough });
        let uids = await searchAmazonUids(c, domains, {
          afterUid: doneThrough,
          since: new Date(row.sinceDate),
        });
        ulog.info({ folder: row.folder, messages: uids.length, since: row.sinceDate }, "backfill");
        events.publish(userId, "mailbox.scanning");
        let lastPublish = Date.now();
        const scan = deps.ingest.beginScan(userId, "backfill");
        try {
          const failures = new Map<number, number>();
          // Progress is persisted every BACKFILL_PROGRESS_EVERY messages and whenever a pass
          // ends (normally, stopped, failed or thrown), not after every message: after a crash
          // the resume re-reads at most that many messages, which is safe because the ledger
          // dedupes them (their orders are not applied twice; marking / moving again is harmless
          // and a message already moved away is simply gone from the folder).
          let unsaved = 0;
          let lastDone = doneThrough;
          const saveProgress = () => {
            if (unsaved === 0) return;
            unsaved = 0;
            repo.setBackfillProgress(userId, lastDone);
          };
          while (uids.length > 0 && !run.cancelled && !stopping) {
            let res: Awaited<ReturnType<typeof processUids>>;
            try {
              res = await processUids({
                client: c,
                userId,
                uids,
                ingest: deps.ingest,
                scan,
                limits: fetchLimits,
                settings: {
                  markProcessedAsRead: settings.markProcessedAsRead,
                  processedFolder: settings.processedFolder,
                },
                log: ulog,
                shouldStop: () => run.cancelled || stopping,
                onDone: (uid) => {
                  lastDone = uid;
                  if (++unsaved >= BACKFILL_PROGRESS_EVERY) saveProgress();
                  if (Date.now() - lastPublish > 500) {
                    lastPublish = Date.now();
                    events.publish(userId, "mailbox.scanning");
                  }
                },
              });
            } finally {
              // The pass ended (or the connection was lost): what is done is persisted now.
              saveProgress();
            }
            if (!res.failed) break;
            const { uid } = res.failed;
            const n = (failures.get(uid) ?? 0) + 1;
            failures.set(uid, n);
            if (n >= backfillRetry.attempts) {
              ulog.error(
                { uid, attempts: n, err: res.failed.error },
                "backfill: a message keeps failing; it is left unprocessed",
              );
              lastDone = uid;
              repo.setBackfillProgress(userId, uid);
              uids = uids.filter((u) => u > uid);
            } else {
              uids = uids.filter((u) => u >= uid);
              await Bun.sleep(backfillRetry.delayMs);
            }
          }
        } finally {
          await deps.ingest.endScan(scan);
        }
        if (!run.cancelled && !stopping) {
          repo.updateBackfill(userId, { status: "done" });
          ulog.info("backfill finished");
        }
      } finally {
        lock.release();
      }
    } finally {
      await closeImap(c);
      events.publish(userId, "mailbox.scanned");
    }
  }

  /** Runs (or resumes) the user's backfill in the background, retrying lost connections. */
  function run(userId: number) {
    if (backfills.has(userId) || stopping) return;
    const run: BackfillRun = { cancelled: false, promise: Promise.resolve(), wake: () => {} };
    run.promise = (async () => {
      for (let attempt = 0; !run.cancelled && !stopping; attempt++) {
        try {
          await backfillOnce(userId, run);
          return;
        } catch (err) {
          const e = classifyImapError(err, deps.endpoint);
          if (e.kind === "auth") {
            deps.onAuthFailure(userId, e);
            return;
          }
          if (attempt >= 4 && e.kind !== "refused") {
            // A lost connection resumes at the next start; anything else would fail again.
            if (e.kind !== "network") repo.updateBackfill(userId, { status: "failed" });
            userLog(userId).error(
              { err: e.message },
              e.kind === "network"
                ? "backfill failed; it resumes at the next start"
                : "backfill failed",
            );
            return;
          }
          // A temporary refusal waits as long as the server asked, and is never given up.
          const delay = atLeast(
            backoffDelay(attempt, {
              baseMs: timings.backoffBaseMs,
              maxMs: timings.backoffMaxMs,
              spread: 0.2,
            }),
            e.retryAfterMs,
          );
          userLog(userId).warn({ err: e.message, retryInMs: delay }, "backfill interrupted");
          // Cancelling (Disconnect, shutdown) ends the wait at once.
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, delay);
            run.wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
        }
      }
    })()
      .catch((err) => userLog(userId).error({ err }, "backfill crashed"))
      .finally(() => {
        if (backfills.get(userId) === run) backfills.delete(userId);
        if (!run.cancelled && !stopping) deps.onEnded?.(userId);
      });
    backfills.set(userId, run);
  }

  return {
    /** Runs (or resumes) the user's backfill in the background (no-op when one runs). */
    run,
    cancel,
    isRunning: (userId: number) => backfills.has(userId),
    /** Resolves when the user's run (if any) has ended. */
    done: (userId: number) => backfills.get(userId)?.promise,
    /** Shutdown: cancels every run; resolves when they have ended. */
    stopAll(): Promise<unknown> {
      stopping = true;
      for (const r of backfills.values()) {
        r.cancelled = true;
        r.wake();
      }
      return Promise.all([...backfills.values()].map((r) => r.promise));
    },
  };
}
export type BackfillRunner = ReturnType<typeof createBackfillRunner>;
