/**
 * The mail ingestion pipeline: one raw message in, its orders committed, a result out. IMAP (IDLE,
 * polling, backfill) and the file import call the same `ingest`.
 *
 *   raw → message key → ledger (seen? return the first outcome, change nothing)
 *       → sender (Amazon? else forwarded / not-amazon) → spoof check (auth-check.ts)
 *       → read (parse + the Amazon reader) → plan (apply-facts.ts) → ONE transaction:
 *         orders (through the orders service) + ledger entry + counters.
 *
 * Rules decided here:
 * - Message key: the Message-ID (without <>), else "sha256:<hex of the raw bytes>".
 * - Idempotent: a key in the ledger returns the first outcome with alreadyProcessed: true and
 *   changes nothing (not even the counters), across restarts, folders and UIDVALIDITY changes.
 *   One exception, so that nothing a user asked for is lost to an earlier setting: a message the
 *   import mode kept out ("vine" mode: a paid order, or a later mail "all" mode would create
 *   orders from; `modeLimited` in the ledger) is read again, as new, once the mode is "all"
 *   (files imported again, a mailbox re-scan). It is not counted in emailsscanned twice, and
 *   orders it created before are matched, not created again. `setImportMode` answers how many
 *   such messages there are and the period a mailbox re-scan must cover to reach them. Likewise
 *   a message skipped "no-matching-order" (an update about an order we did not have) is read
 *   again whenever it comes again: once its order confirmation was imported, it applies.
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
 * - Sender: the From address must pass isAmazonSender (read both by the parser and from the raw
 *   header, one From header only), else "not-amazon". Forwarded mail (From not
 *   Amazon, subject starting Fwd:/Fw:/WG:/I:, body quoting an Amazon address) is "forwarded":
 *   never imported, because the forwarder wrote every byte of it and no Amazon signature covers
 *   it. A non-Amazon sender with any other subject is rejected from its headers alone, without
 *   parsing the body (most of a Takeout mbox is not Amazon's mail).
 * - Spoofing: see auth-check.ts; a failure is skipped "spoofed" and logged as a warning.
 *   Missing Authentication-Results (a .eml or .mbox exported elsewhere, a test Dovecot, a server
 *   that does not add the header) is accepted, logged and counted as unverified in the result and
 *   the scan: such a server would equally keep a forged header the sender wrote, so refusing would
 *   protect nothing, and Gmail always adds the header, so real Gmail mail never takes this path.
 * - Not understood: Amazon mail the reader could not read enough to act
 *   on (an order confirmation whose total could not be read in "Vine orders only", so the Vine
 *   rule cannot be decided; order mail of a kind the reader did not decide, MailFacts.unread
 *   "kind"; order mail with nothing read and something unread) is recorded skipped
 *   "not-understood": never taken for paid, never invented as an order, counted apart in the
 *   summary (by marketplace), left in the mailbox folder. The ledger keeps the reader's version
 *   and what it could not read (`unread`) for every message; when the reader's version is higher
 *   (`readerVersion`, READER_VERSION by default), a message recorded as not understood or read
 *   incompletely (applied, with something unread) is read again when it comes again (files
 *   imported again; a mailbox re-read: `rereadDue` / `takeMailboxReread`, run by the mailbox
 *   service as a backfill over their period). Read again after being applied, it only fills what
 *   the orders lack (apply-facts `fill`): nothing the user typed is overwritten.
 * - Counters: emailsscanned + 1 and lastprocessedtime = now for every message read for the first
 *   time, Amazon or not, in the same transaction as its ledger entry.
 * - A scan collects totals; endScan sends ONE notification when the scan created or updated
 *   orders (none otherwise) and publishes "mailbox.scanned" so browsers refresh emailsscanned.
 *   An `ingest` without a scan is a scan of one message.
 */

import type { AlertEvent } from "../../contract/alerts.ts";
import { OLD_EMAIL_PERIODS } from "../../contract/constants.ts";
import type {
  CreateOrderBody,
  IngestSummary,
  NotificationLevel,
  SkipReason,
} from "../../contract/index.ts";
import type { EventBus } from "../../events/bus.ts";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../log.ts";
import { READER_VERSION } from "../../mail/amazon/reader-version.ts";
import type {
  MailFacts,
  MailKind,
  MailMessage,
  Marketplace,
  UnreadField,
} from "../../mail/amazon/types.ts";
import { plural } from "../../shared/plural.ts";
import { html, type SafeHtml } from "../notifications/html.ts";
import type { NotificationAlert } from "../notifications/notifications.service.ts";
import { toOrder } from "../orders/order-model.ts";
import type { OrdersService } from "../orders/orders.service.ts";
import type { ExportSection } from "../users/users.service.ts";
import { type Change, type ImportMode, type LedgerReason, planFacts } from "./apply-facts.ts";
import { checkAuthentication, type HeaderLine } from "./auth-check.ts";
import type { IngestRepo, LedgerRow } from "./ingest.repo.ts";

export type ScanSource = "imap" | "backfill" | "import";
export type Outcome = "created" | "updated" | "unchanged" | "skipped";

export type IngestResult = {
  messageKey: string;
  outcome: Outcome;
  /** Why it changed nothing ("not-understood": kept to be read again by a newer reader). */
  reason?: LedgerReason;
  /** The import mode kept (part of) it out: read again once the mode is "all". */
  modeLimited?: boolean;
  kind?: MailKind;
  ordersCreated: number;
  ordersUpdated: number;
  alreadyProcessed: boolean;
  /** Amazon mail only: "absent" when it carried no Authentication-Results (accepted, unverified). */
  authentication?: "pass" | "absent";
  /** Amazon mail the reader read: the marketplace of its sender. */
  marketplace?: Marketplace;
};

/** A pass over many messages; its totals become one summary and at most one notification. */
export type Scan = {
  readonly userId: number;
  readonly source: ScanSource;
  readonly startedAt: string;
  readonly summary: IngestSummary;
  /** Amazon messages accepted without Authentication-Results. */
  unverified: number;
  /** Product names of the orders created, for the notification. */
  readonly createdNames: string[];
  readonly changes: Record<Change, number>;
  ended: boolean;
};

export type IngestDeps = {
  repo: IngestRepo;
  orders: Pick<OrdersService, "create" | "update">;
  notify: (
    userId: number,
    level: NotificationLevel,
    message: SafeHtml,
    alert?: NotificationAlert,
  ) => unknown;
  events: EventBus;
  log: Logger;
  /** Raw message → MailMessage (mailparser). May throw on garbage. */
  parseMail: (raw: Uint8Array) => Promise<MailMessage> | MailMessage;
  /** The Amazon reader: pure, never touches the database. */
  readAmazonMail: (msg: MailMessage) => MailFacts;
  /** The reader's version (READER_VERSION); tests simulate an upgrade by raising it. */
  readerVersion?: () => number;
  isAmazonSender: (address: string) => boolean;
  now?: () => Date;
};

/* ------------------------------------------------------------------------------------------------
 * Raw header helpers (no full parse needed for the key, the sender and the spoof check)
 * --------------------------------------------------------------------------------------------- */

const HEADER_SCAN_MAX = 256 * 1024;
const utf8 = new TextDecoder("utf-8");

/** The header block of a raw message, unfolded, in order, names lower-cased. */
export function rawHeaders(bytes: Uint8Array): HeaderLine[] {
  const limit = Math.min(bytes.length, HEADER_SCAN_MAX);
  let end = limit;
  for (let i = 0; i < limit; i++) {
    if (bytes[i] !== 0x0a) continue;
    // an empty line: "\n\n" or "\n\r\n"
    if (bytes[i + 1] === 0x0a) {
      end = i + 1;
      break;
    }
    if (bytes[i + 1] === 0x0d && bytes[i + 2] === 0x0a) {
      end = i + 1;
      break;
    }
  }
  const text = utf8.decode(bytes.subarray(0, end));
  const out: HeaderLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === "") continue;
    if ((line[0] === " " || line[0] === "\t") && out.length > 0) {
      const last = out[out.length - 1]!;
      last.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    out.push({
      name: line.slice(0, colon).trim().toLowerCase(),
      value: line.slice(colon + 1).trim(),
    });
  }
  return out;
}

/** "<abc@x>" → "abc@x"; null when there is none. */
export function messageIdOf(headers: readonly HeaderLine[]): string | null {
  const v = headers.find((h) => h.name === "message-id")?.value.trim();
  if (!v) return null;
  const m = /<([^<>\s]+)>/.exec(v);
  const id = m ? m[1]! : /^\S+$/.test(v) ? v : null;
  return id && id.length <= 900 ? id : null;
}

/** The address of a From value: the last <...>, else the bare address. Lower-cased. */
export function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const angle = [...value.matchAll(/<([^<>\s]+@[^<>\s]+)>/g)].at(-1);
  if (angle) return angle[1]!.toLowerCase();
  const bare = /([^\s<>"(),;:]+@[^\s<>"(),;:]+)/.exec(value);
  return bare ? bare[1]!.toLowerCase() : null;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Subjects of forwarded mail: Fwd:, Fw:, FW:, WG: (German), I: (Italian), optionally tagged. */
export const FORWARD_SUBJECT = /^\s*(?:\[[^\]]*\]\s*)?(?:fwd?|wg|i)\s*:/i;

const ADDRESS_RE = /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

/** True when the body quotes a message from an Amazon address (the forwarded original). */
function quotesAmazon(msg: MailMessage, isAmazon: (a: string) => boolean): boolean {
  const body = `${msg.text ?? ""}\n${msg.html ?? ""}`.slice(0, 512 * 1024);
  for (const m of body.matchAll(ADDRESS_RE)) if (isAmazon(m[0].toLowerCase())) return true;
  return false;
}

function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

const encoder = new TextEncoder();

/* ------------------------------------------------------------------------------------------------
 * The service
 * --------------------------------------------------------------------------------------------- */

/** What switching the import mode makes readable again (PUT /api/imap/import-mode). */
export type RereadOffer = {
  /** Messages read before that the old mode kept out and the new one imports. */
  messages: number;
  /** The smallest "Process Old Emails" period reaching the oldest of them; null when unknown. */
  daysBack: number | null;
};

type Decision =
  | {
      type: "skip";
      reason: LedgerReason;
      kind?: MailKind;
      marketplace?: Marketplace;
      unread?: readonly UnreadField[];
      mailDate?: Date | null;
    }
  | { type: "apply"; facts: MailFacts; mailDate: Date | null };

/** The ledger's `unread` column: the fields joined, null when none. */
const unreadColumn = (fields: readonly UnreadField[] | undefined): string | null =>
  fields && fields.length > 0 ? [...new Set(fields)].sort().join(",") : null;

const validDate = (d: Date | null | undefined): string | null =>
  d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;

const emptyChanges = (): Record<Change, number> => ({
  shipped: 0,
  delivered: 0,
  canceled: 0,
  delayed: 0,
  details: 0,
});

/**
 * A batch (ingestMany: one transaction for the lot): at most this many messages, the mailbox's
 * fetch batches (src/mail/imap/supervisor.ts) and the file import's alike. Fewer hold less mail
 * at once, more cost round trips and commits: backfill of 5,000 (bench/backfill.bench.ts) peak
 * RSS 137 MB at 10 (15 % slower), 142 MB at 15, 144-149 MB at 25.
 */
export const INGEST_BATCH_MAX = 15;
/** …and at most this many bytes of raw mail are held in memory at once. */
export const INGEST_BATCH_MAX_BYTES = 8 * 1024 * 1024;
/**
 * The largest message read, from IMAP (RFC822.SIZE, checked before the body is fetched) or from
 * an .eml/.mbox import: larger ones are counted skipped "too-large", never parsed. Amazon's mail
 * is tens of KB; Gmail accepts up to 25 MB. 10 MB keeps one message from ballooning memory
 * (a 60 MB one took the process from 88 to 220 MB) with a wide margin for real mail.
 */
export const MAIL_MESSAGE_MAX_BYTES = 10 * 1024 * 1024;

const LONGEST_PERIOD = OLD_EMAIL_PERIODS[OLD_EMAIL_PERIODS.length - 1]!;

/** How many created products the notification names before "and N more". */
const NOTIFY_NAMES = 5;

export function createMailIngestService(deps: IngestDeps) {
  const { repo, log } = deps;
  const clock = deps.now ?? (() => new Date());
  const readerVersion = deps.readerVersion ?? (() => READER_VERSION);

  /** Every message in exactly one bucket (MessageBuckets): they add up to messagesRead. */
  function tally(scan: Scan, r: IngestResult) {
    const s = scan.summary;
    s.messagesRead++;
    if (r.alreadyProcessed) {
      s.skipped.duplicate = (s.skipped.duplicate ?? 0) + 1;
      s.messages.skipped++;
      return;
    }
    s.ordersCreated += r.ordersCreated;
    s.ordersUpdated += r.ordersUpdated;
    if (r.modeLimited) s.modeLimited++;
    if (r.reason === "not-understood") {
      s.messages.notUnderstood++;
      const m = r.marketplace ?? "unknown";
      s.notUnderstoodByMarketplace[m] = (s.notUnderstoodByMarketplace[m] ?? 0) + 1;
    } else if (r.outcome === "skipped") {
      const reason = (r.reason ?? "unreadable") as SkipReason;
      s.skipped[reason] = (s.skipped[reason] ?? 0) + 1;
      s.messages.skipped++;
    } else s.messages[r.outcome]++;
    if (r.reason === "not-an-order-mail" && r.marketplace) {
      const by = s.otherByMarketplace ?? {};
      by[r.marketplace] = (by[r.marketplace] ?? 0) + 1;
      s.otherByMarketplace = by;
    }
    if (r.authentication === "absent") scan.unverified++;
  }

  /**
   * True when the ledger entry is read again (see the header): kept out by the import mode that
   * now allows it, or an update that found no order (it may find it now).
   */
  const rereadable = (userId: number, row: LedgerRow): boolean =>
    row.reason === "no-matching-order" ||
    (row.modeLimited === 1 && repo.stats(userId).importMode === "all") ||
    byNewerReader(row);

  /** Not understood or read incompletely by a reader older than today's. */
  const byNewerReader = (row: LedgerRow): boolean =>
    row.readerVersion < readerVersion() && (row.reason === "not-understood" || row.unread !== null);

  const fromLedger = (row: LedgerRow): IngestResult => ({
    messageKey: row.messageKey,
    outcome: row.outcome as Outcome,
    ...(row.reason ? { reason: row.reason as LedgerReason } : {}),
    ...(row.kind ? { kind: row.kind as MailKind } : {}),
    ordersCreated: row.ordersCreated,
    ordersUpdated: row.ordersUpdated,
    alreadyProcessed: true,
  });

  /** Sender, spoof check and reading: what the message is, without touching the database. */
  async function decide(
    bytes: Uint8Array,
    headers: HeaderLine[],
    ctx: { userId: number; key: string; auth?: "pass" | "absent" },
  ): Promise<Decision> {
    const headerFrom = addressOf(headers.find((h) => h.name === "from")?.value);
    const subject = headers.find((h) => h.name === "subject")?.value ?? "";
    // Fast path: plainly not Amazon's and not a forward: no need to parse the body.
    if (headerFrom && !deps.isAmazonSender(headerFrom) && !FORWARD_SUBJECT.test(subject)) {
      return { type: "skip", reason: "not-amazon" };
    }
    let msg: MailMessage;
    try {
      msg = await deps.parseMail(bytes);
    } catch (err) {
      log.info({ userId: ctx.userId, messageKey: ctx.key, err }, "mail: unparseable message");
      return { type: "skip", reason: "unreadable" };
    }
    const sender = msg.from?.address?.toLowerCase() ?? headerFrom;
    // Both readings of From must be Amazon's (the parser takes the first address, the header scan
    // the last), and there must be one From header: a message built to be read two ways is not.
    const oneFrom = headers.filter((h) => h.name === "from").length <= 1;
    const amazon =
      sender !== null &&
      deps.isAmazonSender(sender) &&
      (headerFrom === null || deps.isAmazonSender(headerFrom)) &&
      oneFrom;
    if (!sender || !amazon) {
      if (FORWARD_SUBJECT.test(msg.subject ?? subject) && quotesAmazon(msg, deps.isAmazonSender)) {
        log.info(
          { userId: ctx.userId, messageKey: ctx.key, from: sender },
          "mail: forwarded Amazon mail ignored (a forward is not authenticated by Amazon)",
        );
        return { type: "skip", reason: "forwarded" };
      }
      return { type: "skip", reason: "not-amazon" };
    }
    const auth = checkAuthentication(headers, domainOf(sender));
    if (auth.verdict === "spoofed") {
      log.warn(
        { userId: ctx.userId, messageKey: ctx.key, from: sender, detail: auth.detail },
        "mail: message claiming to be from Amazon failed authentication; ignored",
      );
      return { type: "skip", reason: "spoofed" };
    }
    ctx.auth = auth.verdict;
    if (auth.verdict === "absent") {
      log.info(
        { userId: ctx.userId, messageKey: ctx.key, from: sender },
        "mail: no Authentication-Results header; accepted unverified",
      );
    }
    let facts: MailFacts;
    try {
      facts = deps.readAmazonMail(msg);
    } catch (err) {
      log.warn({ userId: ctx.userId, messageKey: ctx.key, err }, "mail: the reader failed");
      return { type: "skip", reason: "unreadable" };
    }
    if (facts.kind === "other") {
      // Order mail by its sender and structure whose kind the reader could not decide: kept to
      // be read again; any other "other" is plainly not about an order.
      const unknownKind = facts.unread?.includes("kind") === true;
      return {
        type: "skip",
        reason: unknownKind ? "not-understood" : "not-an-order-mail",
        kind: "other",
        marketplace: facts.marketplace,
        ...(unknownKind ? { unread: facts.unread, mailDate: msg.date } : {}),
      };
    }
    if (facts.forwarded) {
      // Amazon's own address on a message that reads like a forward: Amazon never forwards, so
      // this is not one of its order mails whatever it quotes.
      log.info({ userId: ctx.userId, messageKey: ctx.key }, "mail: forwarded-looking mail ignored");
      return { type: "skip", reason: "forwarded", kind: facts.kind };
    }
    return { type: "apply", facts, mailDate: msg.date };
  }

  /** What committing one message gave: its result and, for the scan, what it changed. */
  type Applied = { result: IngestResult; names: string[]; changes: Record<Change, number> };

  /**
   * Applies a decision, records the ledger and the counters, in one transaction (a savepoint when
   * called inside the transaction of a batch). Touches nothing but the database: the scan takes
   * the outcome only once it is committed (account).
   */
  function applyOne(
    userId: number,
    key: string,
    decision: Decision,
    auth: "pass" | "absent" | undefined,
  ): Applied {
    const nowIso = clock().toISOString();
    const base = {
      messageKey: key,
      alreadyProcessed: false,
      ...(auth ? { authentication: auth } : {}),
    };
    let reread = false;
    /** The entry read again because a newer reader may read it better (null otherwise). */
    let rereadOf: LedgerRow | null = null;
    const version = readerVersion();
    const record = (
      r: IngestResult,
      extra: { mailDate?: Date | null; unread?: readonly UnreadField[] } = {},
    ) => {
      repo.recordProcessed({
        userId,
        messageKey: key,
        outcome: r.outcome,
        reason: r.reason ?? null,
        kind: r.kind ?? null,
        ordersCreated: r.ordersCreated,
        ordersUpdated: r.ordersUpdated,
        processedAt: nowIso,
        modeLimited: r.modeLimited ? 1 : 0,
        mailDate: validDate(extra.mailDate),
        readerVersion: version,
        unread: unreadColumn(extra.unread),
      });
      // A message read again (see the header) was counted the first time.
      if (!reread) repo.countScanned(userId, nowIso);
    };
    /** The ledger entry of this message, unless it is to be read again (then it is removed). */
    const priorEntry = (): LedgerRow | undefined => {
      const prior = repo.findProcessed(userId, key);
      if (!prior || !rereadable(userId, prior)) return prior;
      repo.forgetProcessed(userId, key);
      reread = true;
      rereadOf = byNewerReader(prior) ? prior : null;
      return undefined;
    };
    const skipped = (reason: LedgerReason, kind?: MailKind): IngestResult => ({
      ...base,
      outcome: "skipped",
      reason,
      ...(kind ? { kind } : {}),
      ordersCreated: 0,
      ordersUpdated: 0,
    });

    const names: string[] = [];
    const changes = emptyChanges();
    const apply = (): IngestResult => {
      const prior = priorEntry();
      if (prior) return fromLedger(prior);
      if (decision.type === "skip") {
        const r = skipped(decision.reason, decision.kind);
        if (decision.marketplace) r.marketplace = decision.marketplace;
        record(r, { mailDate: decision.mailDate, unread: decision.unread });
        return r;
      }
      const { facts, mailDate } = decision;
      // Applied before and read again by a newer reader: fill in only what is missing.
      const before: LedgerRow | null = rereadOf;
      const fill =
        before && before.outcome !== "skipped"
          ? { creates: /(^|,)(items|total)(,|$)/.test(before.unread ?? "") }
          : undefined;
      // The first Amazon mail of a known marketplace decides the user's Vine marketplace.
      if (facts.marketplace !== "unknown") repo.learnVineMarketplace(userId, facts.marketplace);
      const mode = repo.stats(userId).importMode;
      const plan = planFacts(facts, {
        mode,
        mailDate,
        byNumber: (n) => repo.ordersByNumber(userId, n).map(toOrder),
        unnumberedByAsin: (a) => repo.unnumberedByAsin(userId, a).map(toOrder),
        ...(fill ? { fill } : {}),
      });
      let r: IngestResult;
      // What was not read: the reader's list, and the total of an order the Vine rule could not
      // decide (today's reader may leave the total null without saying so).
      const unread: UnreadField[] = [...(facts.unread ?? [])];
      if (plan.undecided > 0) unread.push("total");
      if (plan.skip) {
        r = skipped(plan.skip, facts.kind);
        if (plan.skip === "not-understood" || plan.skip === "not-an-order-mail") {
          r.marketplace = facts.marketplace;
        }
      } else {
        for (const c of plan.creates) {
          // Absent fields are read as undefined, exactly like a request that leaves them out.
          const o = deps.orders.create(userId, c.body as CreateOrderBody, { mailDate });
          names.push(o.productname);
        }
        for (const u of plan.updates) {
          deps.orders.update(userId, u.order.orderid, u.body, { mailDate });
          changes[u.change]++;
        }
        const created = plan.creates.length;
        const updated = plan.updates.length;
        r = {
          ...base,
          outcome: created ? "created" : updated ? "updated" : "unchanged",
          kind: facts.kind,
          ordersCreated: created,
          ordersUpdated: updated,
        };
      }
      if (plan.modeLimited) r.modeLimited = true;
      record(r, { mailDate, unread });
      return r;
    };

    try {
      return { result: repo.transaction(apply), names, changes };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // The orders service refused a value the mail gave: the message is bad mail, not a bug.
      log.warn({ userId, messageKey: key, err: err.message }, "mail: order change refused");
      const kind = decision.type === "apply" ? decision.facts.kind : undefined;
      const result = repo.transaction(() => {
        reread = false;
        const prior = priorEntry();
        if (prior) return fromLedger(prior);
        const r = skipped("unreadable", kind);
        record(r);
        return r;
      });
      return { result, names: [], changes: emptyChanges() };
    }
  }

  /** A committed message's outcome into the scan's totals (and the log). */
  function account(scan: Scan, { result, names, changes }: Applied) {
    tally(scan, result);
    if (result.alreadyProcessed) return;
    scan.createdNames.push(...names);
    for (const [k, n] of Object.entries(changes) as [Change, number][]) scan.changes[k] += n;
    if (result.ordersCreated || result.ordersUpdated) {
      log.info(
        {
          userId: scan.userId,
          messageKey: result.messageKey,
          kind: result.kind,
          created: result.ordersCreated,
          updated: result.ordersUpdated,
        },
        "mail: orders changed",
      );
    }
  }

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
    const decision = await decide(bytes, headers, ctx);
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
        for (const a of applied) account(scan, a);
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
    countSkipped(scan: Scan, reason: "too-large" | "unreadable"): void {
      scan.summary.messagesRead++;
      scan.summary.messages.skipped++;
      scan.summary.skipped[reason] = (scan.summary.skipped[reason] ?? 0) + 1;
    },

    beginScan(userId: number, source: ScanSource): Scan {
      return {
        userId,
        source,
        startedAt: clock().toISOString(),
        summary: {
          messagesRead: 0,
          ordersCreated: 0,
          ordersUpdated: 0,
          messages: { created: 0, updated: 0, unchanged: 0, notUnderstood: 0, skipped: 0 },
          skipped: {},
          notUnderstoodByMarketplace: {},
          modeLimited: 0,
          importMode: repo.stats(userId).importMode,
          otherByMarketplace: {},
        },
        unverified: 0,
        createdNames: [],
        changes: emptyChanges(),
        ended: false,
      };
    },

    /**
     * Totals of the scan; sends ONE summary notification when it created or updated orders (none
     * otherwise) and publishes "mailbox.scanned" when it read anything. Ending twice does nothing more.
     */
    endScan(scan: Scan): IngestSummary {
      const summary: IngestSummary = {
        ...scan.summary,
        messages: { ...scan.summary.messages },
        skipped: { ...scan.summary.skipped },
        notUnderstoodByMarketplace: { ...scan.summary.notUnderstoodByMarketplace },
        otherByMarketplace: { ...scan.summary.otherByMarketplace },
      };
      if (scan.ended) return summary;
      scan.ended = true;
      const { userId } = scan;
      if (summary.messagesRead > 0) {
        log.info(
          { userId, source: scan.source, ...summary, unverified: scan.unverified },
          "mail: scan finished",
        );
        deps.events.publish(userId, "mailbox.scanned");
      }
      if (summary.ordersCreated + summary.ordersUpdated + summary.messages.notUnderstood > 0) {
        try {
          deps.notify(userId, "information", scanMessage(scan), { event: scanEvents(scan) });
        } catch (err) {
          log.error({ err, userId }, "mail: could not store the scan notification");
        }
      }
      return summary;
    },

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

/** The alert kinds of a scan's notification: a channel gets it when it chose any of them. */
export function scanEvents(scan: Scan): AlertEvent[] {
  const kinds: AlertEvent[] = [];
  if (scan.summary.ordersCreated > 0) kinds.push("new_order");
  if (scan.changes.shipped > 0) kinds.push("shipped");
  if (scan.changes.delivered > 0) kinds.push("delivered");
  return kinds;
}

/** The one notification of a scan: new orders by name, then the other changes as counts. */
export function scanMessage(scan: Scan): SafeHtml {
  const created = scan.summary.ordersCreated;
  const where = scan.source === "import" ? "your imported mail" : "your mail";
  const parts: SafeHtml[] = [];
  if (created > 0) {
    const shown = scan.createdNames.slice(0, NOTIFY_NAMES);
    const more = created - shown.length;
    parts.push(
      html`<strong>${plural(created, { one: "new order", other: "new orders" })}</strong> from ${where}: ${shown.map(
        (n, i) => html`${i > 0 ? ", " : ""}${n}`,
      )}${more > 0 ? ` and ${more} more` : ""}.`,
    );
  }
  const c = scan.changes;
  const counted: [number, string][] = [
    [c.shipped, "shipped"],
    [c.delivered, "delivered"],
    [c.canceled, "canceled"],
    [c.delayed, "delayed"],
    [c.details, "updated"],
  ];
  const other = counted.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  if (other.length > 0) {
    const lead = created > 0 ? " " : "";
    parts.push(
      html`${lead}<strong>${plural(scan.summary.ordersUpdated, { one: "order", other: "orders" })} updated</strong> from ${where}: ${other.join(", ")}.`,
    );
  }
  const unknown = scan.summary.messages.notUnderstood;
  if (unknown > 0) {
    const lead = parts.length > 0 ? " " : "";
    parts.push(
      html`${lead}${notUnderstoodSentence(unknown, scan.summary.notUnderstoodByMarketplace)}`,
    );
  }
  return html`${parts}`;
}

/**
 * "2 emails from Amazon were not understood (JP 2); they are read again when Grapevine's mail
 * reader is updated." (docs/messages.md, Mail and account).
 */
export function notUnderstoodSentence(
  n: number,
  byMarketplace: Partial<Record<string, number>>,
): string {
  const where = Object.entries(byMarketplace)
    .filter(([, c]) => (c ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([m, c]) => `${m === "unknown" ? "other marketplaces" : m} ${c}`);
  return `${plural(n, { one: "email", other: "emails" })} from Amazon ${n === 1 ? "was" : "were"} not understood${
    where.length > 0 ? ` (${where.join(", ")})` : ""
  }; ${n === 1 ? "it is" : "they are"} read again when Grapevine's mail reader is updated.`;
}
