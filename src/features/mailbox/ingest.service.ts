/**
 * The mail ingestion pipeline: one raw message in, its orders committed, a result out. IMAP (IDLE,
 * polling, backfill) and the file import call the same `ingest`.
 *
 *   raw → message key → ledger (seen? return the first outcome, change nothing)
 *       → sender (Amazon? else forwarded / not-amazon) → spoof check (src/mail/auth-check.ts)
 *       → read (parse + the Amazon reader) → plan (apply-facts.ts) → ONE transaction:
 *         orders (through the orders service) + ledger entry + counters.
 *
 * One job per module: the raw headers are read by src/mail/headers.ts, the sender, spoof check
 * and reading decided by ingest.decide.ts, the ledger and the write of one message by
 * ingest.ledger.ts, the scan's totals and its notification by ingest.scan.ts. Rules decided here:
 * - Message key: the Message-ID (without <>), else "sha256:<hex of the raw bytes>".
 * - One transaction per message: the orders, the ledger entry and emailsscanned/lastprocessedtime
 *   commit together or not at all (the orders service is synchronous and shares the connection,
 *   so nothing else interleaves). `ingestMany` (a fetch batch of the mailbox) reads all its
 *   messages first, then commits them in one transaction with a savepoint per message: the same
 *   outcome, without a commit per message (a commit cost more than the orders it wrote).
 *   A crash before the commit leaves no trace: the message is read again next time. The ledger
 *   is checked again inside the transaction, so two passes racing on the same message (IDLE and
 *   a backfill) apply it once. Order events are published by the
 *   orders service during the transaction; a rollback after one only makes a browser refetch.
 * - Bad mail never throws: unparseable or unreadable → skipped "unreadable" (and recorded, so it
 *   is not retried forever); a value the orders service refuses rolls the message back and
 *   records it as "unreadable". Infrastructure errors (the database) do throw, and nothing is
 *   recorded: the caller must not mark, move or count the message (docs/behaviour.md#mail).
 * - Not understood: Amazon mail the reader could not read enough to act
 *   on (an order confirmation whose total could not be read in "Vine orders only", so the Vine
 *   rule cannot be decided; order mail of a kind the reader did not decide, MailFacts.unread
 *   "kind"; order mail with nothing read and something unread) is recorded skipped
 *   "not-understood": never taken for paid, never invented as an order, counted apart in the
 *   summary (by marketplace), left in the mailbox folder, and read again by a newer reader
 *   (ingest.ledger.ts; a mailbox re-read: `rereadDue` / `takeMailboxReread`, run by the mailbox
 *   service as a backfill over their period).
 * - Re-read offers: `setImportMode` answers how many messages the old mode kept out and the
 *   period a mailbox re-scan must cover to reach them.
 * - An `ingest` without a scan is a scan of one message.
 */

import { OLD_EMAIL_PERIODS } from "../../contract/constants.ts";
import { READER_VERSION } from "../../mail/amazon/reader-version.ts";
import { messageIdOf, rawHeaders, sha256Hex } from "../../mail/headers.ts";
import type { OrdersService } from "../orders/orders.service.ts";
import type { ExportSection } from "../users/users.service.ts";
import type { ImportMode } from "./apply-facts.ts";
import { type DecideDeps, type Decision, decide } from "./ingest.decide.ts";
import { type Applied, createLedger, emptyChanges, type IngestResult } from "./ingest.ledger.ts";
import type { IngestRepo, LedgerRow } from "./ingest.repo.ts";
import { createScans, type Scan, type ScanDeps } from "./ingest.scan.ts";

export type IngestDeps = DecideDeps &
  Pick<ScanDeps, "notify" | "events"> & {
    repo: IngestRepo;
    orders: Pick<OrdersService, "create" | "update">;
    /** The reader's version (READER_VERSION); tests simulate an upgrade by raising it. */
    readerVersion?: () => number;
    now?: () => Date;
  };

const encoder = new TextEncoder();

/** What switching the import mode makes readable again (PUT /api/imap/import-mode). */
export type RereadOffer = {
  /** Messages read before that the old mode kept out and the new one imports. */
  messages: number;
  /** The smallest "Process Old Emails" period reaching the oldest of them; null when unknown. */
  daysBack: number | null;
};

/**
 * A batch (ingestMany: one transaction for the lot): at most this many messages, the mailbox's
 * fetch batches (src/mail/imap/fetch-batches.ts) and the file import's alike. Fewer hold less
 * mail at once, more cost round trips and commits (bench/backfill.bench.ts; figures in
 * bench/README.md, "Memory of a backfill").
 */
export const INGEST_BATCH_MAX = 15;
/** …and at most this many bytes of raw mail are held in memory at once. */
export const INGEST_BATCH_MAX_BYTES = 8 * 1024 * 1024;
/**
 * The largest message read, from IMAP (RFC822.SIZE, checked before the body is fetched) or from
 * an .eml/.mbox import: larger ones are counted skipped "too-large", never parsed. Amazon's mail
 * is tens of KB; Gmail accepts up to 25 MB. 10 MB keeps one message from ballooning memory
 * (bench/README.md, "Memory of a backfill") with a wide margin for real mail.
 */
export const MAIL_MESSAGE_MAX_BYTES = 10 * 1024 * 1024;

const LONGEST_PERIOD = OLD_EMAIL_PERIODS[OLD_EMAIL_PERIODS.length - 1]!;

export function createMailIngestService(deps: IngestDeps) {
  const { repo, log } = deps;
  const clock = deps.now ?? (() => new Date());
  const readerVersion = deps.readerVersion ?? (() => READER_VERSION);
  const ledger = createLedger({ repo, orders: deps.orders, log, clock, readerVersion });
  const { rereadable, fromLedger, applyOne } = ledger;
  const scans = createScans({
    log,
    events: deps.events,
    notify: deps.notify,
    clock,
    importMode: (userId) => repo.stats(userId).importMode,
  });

  /** A message read and decided, not yet committed; or one the ledger already holds. */
  type Prepared =
    | { key: string; prior: LedgerRow }
    | { key: string; prior: null; decision: Decision; auth: "pass" | "absent" | undefined };

  /** Key, ledger, sender, spoof check and reading: everything short of the database write. */
  async function prepare(userId: number, raw: Uint8Array | string): Promise<Prepared> {
    const bytes = typeof raw === "string" ? encoder.encode(raw) : raw;
    const headers = rawHeaders(bytes);
    const id = messageIdOf(headers);
    const key = id ?? `sha256:${sha256Hex(bytes)}`;
    const prior = repo.findProcessed(userId, key);
    if (prior && !rereadable(userId, prior)) return { key, prior };
    const ctx: { userId: number; key: string; auth?: "pass" | "absent" } = { userId, key };
    const decision = await decide(deps, bytes, headers, ctx);
    return { key, prior: null, decision, auth: ctx.auth };
  }

  const commitPrepared = (userId: number, p: Prepared): Applied =>
    p.prior
      ? { result: fromLedger(p.prior), names: [], changes: emptyChanges() }
      : applyOne(userId, p.key, p.decision, p.auth);

  /** The smallest "Process Old Emails" period reaching the oldest date; the longest when undated. */
  function periodReaching(due: {
    messages: number;
    oldestMailDate: string | null;
    undated: number;
  }): number | null {
    if (due.messages === 0) return null;
    if (!due.oldestMailDate || due.undated > 0) return LONGEST_PERIOD;
    const days = Math.ceil((clock().getTime() - Date.parse(due.oldestMailDate)) / 86_400_000) + 1;
    return OLD_EMAIL_PERIODS.find((p) => p >= days) ?? LONGEST_PERIOD;
  }

  const service = {
    /**
     * Parse, check, dedupe, read, apply; everything it changes is committed before it returns.
     * Never throws for bad mail: returns outcome "skipped" with a reason. Throws only when the
     * database fails, and then nothing of this message was recorded.
     */
    async ingest(
      userId: number,
      raw: Uint8Array | string,
      opts: { scan?: Scan } = {},
    ): Promise<IngestResult> {
      const { results, failed } = await service.ingestMany(userId, [raw], opts);
      if (failed) throw failed.error;
      return results[0]!;
    },

    /**
     * `ingest` for several messages in order, with the same outcome as calling it for each in
     * turn, stopping at the first that throws: `results` are those committed, `failed` the one
     * that threw (none after it was looked at). Faster: every message is read first, then all are
     * committed in ONE transaction, each in a savepoint of its own (a value the orders service
     * refuses rolls back that message alone). When that transaction fails, they are committed
     * one by one instead, so the failure is pinned on one message and those before it still land.
     */
    async ingestMany(
      userId: number,
      raws: readonly (Uint8Array | string)[],
      opts: { scan?: Scan } = {},
    ): Promise<{ results: IngestResult[]; failed: { index: number; error: unknown } | null }> {
      const own = opts.scan === undefined;
      const scan = opts.scan ?? service.beginScan(userId, "imap");
      if (scan.userId !== userId) throw new Error("ingest: the scan belongs to another user");
      try {
        const prepared: Prepared[] = [];
        let failed: { index: number; error: unknown } | null = null;
        for (const raw of raws) {
          try {
            prepared.push(await prepare(userId, raw));
          } catch (error) {
            failed = { index: prepared.length, error };
            break;
          }
        }
        let applied: Applied[] | null = null;
        if (prepared.length > 1) {
          try {
            applied = repo.transaction(() => prepared.map((p) => commitPrepared(userId, p)));
          } catch {
            applied = null; // rolled back whole: again one by one, to find the message at fault
          }
        }
        if (!applied) {
          applied = [];
          for (const p of prepared) {
            try {
              applied.push(commitPrepared(userId, p));
            } catch (error) {
              failed = { index: applied.length, error };
              break;
            }
          }
        }
        for (const a of applied) scans.account(scan, a);
        return { results: applied.map((a) => a.result), failed };
      } finally {
        if (own) service.endScan(scan);
      }
    },

    /**
     * For a long run of messages (a file import): `add` collects them and hands them to
     * `ingestMany` in batches of INGEST_BATCH_MAX messages or INGEST_BATCH_MAX_BYTES; `flush`
     * ingests what is left. A message that fails throws from the `add` or `flush` that ingested
     * it, as `ingest` would; those before it are committed.
     */
    batcher(userId: number, scan: Scan) {
      let raws: Uint8Array[] = [];
      let bytes = 0;
      const flush = async (): Promise<void> => {
        if (raws.length === 0) return;
        const list = raws;
        raws = [];
        bytes = 0;
        const { failed } = await service.ingestMany(userId, list, { scan });
        if (failed) throw failed.error;
      };
      return {
        async add(raw: Uint8Array): Promise<void> {
          raws.push(raw);
          bytes += raw.length;
          if (raws.length >= INGEST_BATCH_MAX || bytes >= INGEST_BATCH_MAX_BYTES) await flush();
        },
        flush,
      };
    },

    /**
     * Counts a message that could not even be handed to `ingest` (an mbox entry over the size
     * cap) as read and skipped "unreadable". Nothing is recorded: there is nothing to apply.
     */
    countUnreadable(scan: Scan): void {
      service.countSkipped(scan, "unreadable");
    },

    /** Counts a message that was not read at all (over MAIL_MESSAGE_MAX_BYTES, unreadable). */
    countSkipped: scans.countSkipped,

    beginScan: scans.begin,

    endScan: scans.end,

    stats(userId: number): {
      emailsscanned: number;
      lastprocessedtime: string | null;
      importMode: ImportMode;
    } {
      const s = repo.stats(userId);
      return {
        emailsscanned: s.emailsScanned,
        lastprocessedtime: s.lastProcessedTime,
        importMode: s.importMode,
      };
    },

    /** Saves the mode; answers what it makes readable again (nothing when it is "vine"). */
    setImportMode(userId: number, mode: ImportMode): RereadOffer {
      if (mode !== "vine" && mode !== "all") {
        throw new TypeError(`Unknown import mode "${String(mode)}": use "vine" or "all"`);
      }
      repo.setImportMode(userId, mode);
      deps.events.publish(userId, "import-mode.updated");
      return service.rereadOffer(userId);
    },

    /** Messages the current mode would import that an earlier mode kept out (see the header). */
    rereadOffer(userId: number): RereadOffer {
      if (repo.stats(userId).importMode !== "all") return { messages: 0, daysBack: null };
      const { messages, oldestMailDate } = repo.modeLimited(userId);
      if (messages === 0 || !oldestMailDate) return { messages, daysBack: null };
      return { messages, daysBack: periodReaching({ messages, oldestMailDate, undated: 0 }) };
    },

    /**
     * Messages a newer reader reads again (not understood or read incompletely by an older one)
     * and the "Process Old Emails" period reaching the oldest (the longest when some have no date).
     */
    rereadDue(userId: number): RereadOffer {
      const due = repo.rereadDue(userId, readerVersion());
      return { messages: due.messages, daysBack: periodReaching(due) };
    },

    /**
     * The mailbox's re-read for today's reader, once: the period to re-scan when messages are due
     * and the mailbox was not re-read for this version yet (then it is marked re-read); else null.
     */
    takeMailboxReread(userId: number): { daysBack: number; messages: number } | null {
      const version = readerVersion();
      if (repo.mailboxRereadVersion(userId) >= version) return null;
      const due = service.rereadDue(userId);
      if (due.messages === 0) return null;
      repo.setMailboxRereadVersion(userId, version);
      return { messages: due.messages, daysBack: due.daysBack ?? LONGEST_PERIOD };
    },

    /** The export's `mail` section: counters, the import setting and the ledger by outcome. */
    exportSection: ((userId: number): { mail: Record<string, unknown> } => ({
      mail: { ...service.stats(userId), processedMessages: repo.ledgerCounts(userId) },
    })) satisfies ExportSection,
  };
  return service;
}
export type MailIngestService = ReturnType<typeof createMailIngestService>;
