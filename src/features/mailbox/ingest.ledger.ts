/**
 * The ledger and the write of one message: once per message key, in one transaction with the
 * orders it changes and the counters.
 *
 * - Idempotent: a key in the ledger returns the first outcome with alreadyProcessed: true and
 *   changes nothing (not even the counters), across restarts, folders and UIDVALIDITY changes.
 *   One exception, so that nothing a user asked for is lost to an earlier setting: a message the
 *   import mode kept out ("vine" mode: a paid order, or a later mail "all" mode would create
 *   orders from; `modeLimited` in the ledger) is read again, as new, once the mode is "all"
 *   (files imported again, a mailbox re-scan). It is not counted in emailsscanned twice, and
 *   orders it created before are matched, not created again. Likewise a message skipped
 *   "no-matching-order" (an update about an order we did not have) is read again whenever it
 *   comes again: once its order confirmation was imported, it applies.
 * - Not understood: the ledger keeps the reader's version and what it could not read (`unread`)
 *   for every message; when the reader's version is higher (`readerVersion`, READER_VERSION by
 *   default), a message recorded as not understood or read incompletely (applied, with something
 *   unread) is read again when it comes again. Read again after being applied, it only fills what
 *   the orders lack (apply-facts `fill`): nothing the user typed is overwritten.
 * - Counters: emailsscanned + 1 and lastprocessedtime = now for every message read for the first
 *   time, Amazon or not, in the same transaction as its ledger entry.
 * - A value the orders service refuses rolls the message back and records it as "unreadable".
 */
import type { CreateOrderBody } from "../../contract/index.ts";
import type { Logger } from "../../log.ts";
import type { MailKind, Marketplace, UnreadField } from "../../mail/amazon/types.ts";
import { AppError } from "../../util/errors.ts";
import { toOrder } from "../orders/order-model.ts";
import type { OrdersService } from "../orders/orders.service.ts";
import { type Change, type LedgerReason, planFacts } from "./apply-facts.ts";
import type { Decision } from "./ingest.decide.ts";
import type { IngestRepo, LedgerRow } from "./ingest.repo.ts";

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

/** The ledger's `unread` column: the fields joined, null when none. */
const unreadColumn = (fields: readonly UnreadField[] | undefined): string | null =>
  fields && fields.length > 0 ? [...new Set(fields)].sort().join(",") : null;

const validDate = (d: Date | null | undefined): string | null =>
  d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;

export const emptyChanges = (): Record<Change, number> => ({
  shipped: 0,
  delivered: 0,
  canceled: 0,
  delayed: 0,
  details: 0,
});

/** What committing one message gave: its result and, for the scan, what it changed. */
export type Applied = { result: IngestResult; names: string[]; changes: Record<Change, number> };

export type LedgerDeps = {
  repo: IngestRepo;
  orders: Pick<OrdersService, "create" | "update">;
  log: Logger;
  clock: () => Date;
  readerVersion: () => number;
};

export function createLedger(deps: LedgerDeps) {
  const { repo, log, clock, readerVersion } = deps;

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

  /**
   * Applies a decision, records the ledger and the counters, in one transaction (a savepoint when
   * called inside the transaction of a batch). Touches nothing but the database: the scan takes
   * the outcome only once it is committed (`account` in ingest.scan.ts).
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

  return { rereadable, fromLedger, applyOne };
}
