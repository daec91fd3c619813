/**
 * A scan: a pass over many messages (a mailbox sync, a backfill, a file import). It collects
 * totals as its messages commit (every message in exactly one bucket of `messages`); `end` sends
 * ONE notification when the scan created or updated orders or met mail it did not understand
 * (none otherwise) and publishes "mailbox.scanned" so browsers refresh emailsscanned.
 */

import type { AlertEvent } from "../../contract/alerts.ts";
import type { IngestSummary, NotificationLevel, SkipReason } from "../../contract/index.ts";
import type { EventBus } from "../../events/bus.ts";
import type { Logger } from "../../log.ts";
import type { SafeHtml } from "../notifications/html.ts";
import { type MessagePart, type NotificationMessage, part } from "../notifications/message.ts";
import type { NotificationAlert } from "../notifications/notifications.service.ts";
import type { Change, ImportMode } from "./apply-facts.ts";
import { type Applied, emptyChanges, type IngestResult } from "./ingest.ledger.ts";

export type ScanSource = "imap" | "backfill" | "import";

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

/** How many created products the notification names before "and N more". */
const NOTIFY_NAMES = 5;

export type ScanDeps = {
  log: Logger;
  events: EventBus;
  notify: (
    userId: number,
    level: NotificationLevel,
    message: SafeHtml | NotificationMessage,
    alert?: NotificationAlert,
  ) => unknown;
  clock: () => Date;
  importMode: (userId: number) => ImportMode;
};

export function createScans(deps: ScanDeps) {
  const { log } = deps;

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

  return {
    begin(userId: number, source: ScanSource): Scan {
      return {
        userId,
        source,
        startedAt: deps.clock().toISOString(),
        summary: {
          messagesRead: 0,
          ordersCreated: 0,
          ordersUpdated: 0,
          messages: { created: 0, updated: 0, unchanged: 0, notUnderstood: 0, skipped: 0 },
          skipped: {},
          notUnderstoodByMarketplace: {},
          modeLimited: 0,
          importMode: deps.importMode(userId),
          otherByMarketplace: {},
        },
        unverified: 0,
        createdNames: [],
        changes: emptyChanges(),
        ended: false,
      };
    },

    account,

    /** Counts a message that was not read at all (over MAIL_MESSAGE_MAX_BYTES, unreadable). */
    countSkipped(scan: Scan, reason: "too-large" | "unreadable"): void {
      scan.summary.messagesRead++;
      scan.summary.messages.skipped++;
      scan.summary.skipped[reason] = (scan.summary.skipped[reason] ?? 0) + 1;
    },

    /**
     * Totals of the scan; sends ONE summary notification when it created or updated orders (none
     * otherwise) and publishes "mailbox.scanned" when it read anything. Ending twice does nothing more.
     */
    end(scan: Scan): IngestSummary {
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
  };
}

/** The alert kinds of a scan's notification: a channel gets it when it chose any of them. */
export function scanEvents(scan: Scan): AlertEvent[] {
  const kinds: AlertEvent[] = [];
  if (scan.summary.ordersCreated > 0) kinds.push("new_order");
  if (scan.changes.shipped > 0) kinds.push("shipped");
  if (scan.changes.delivered > 0) kinds.push("delivered");
  return kinds;
}

/** The one notification of a scan: new orders by name, then the other changes as counts. */
export function scanMessage(scan: Scan): NotificationMessage {
  const created = scan.summary.ordersCreated;
  const source = { choice: scan.source === "import" ? "import" : "mail" };
  const parts: MessagePart[] = [];
  if (created > 0) {
    const names = scan.createdNames.slice(0, NOTIFY_NAMES);
    const more = created - names.length;
    parts.push(
      more > 0
        ? part("server.scan.createdMore", { count: created, source, names, more })
        : part("server.scan.created", { count: created, source, names }),
    );
  }
  const c = scan.changes;
  const counted: [number, string][] = [
    [c.shipped, "server.scan.change.shipped"],
    [c.delivered, "server.scan.change.delivered"],
    [c.canceled, "server.scan.change.canceled"],
    [c.delayed, "server.scan.change.delayed"],
    [c.details, "server.scan.change.updated"],
  ];
  const changes = counted.filter(([n]) => n > 0);
  if (changes.length > 0) {
    parts.push(
      part("server.scan.updated", {
        count: scan.summary.ordersUpdated,
        source,
        changes: changes.map(([count, id]) => part(id, { count })),
      }),
    );
  }
  const unknown = scan.summary.messages.notUnderstood;
  if (unknown > 0) parts.push(notUnderstood(unknown, scan.summary.notUnderstoodByMarketplace));
  return parts;
}

/**
 * "2 emails from Amazon were not understood (JP 2); they are read again when Grapevine's mail
 * reader is updated." (docs/messages.md, Mail and account).
 */
export function notUnderstood(
  n: number,
  byMarketplace: Partial<Record<string, number>>,
): MessagePart {
  const where = Object.entries(byMarketplace)
    .filter(([, c]) => (c ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(
      ([m, c]): MessagePart =>
        m === "unknown"
          ? part("server.scan.otherMarketplaces", { count: c ?? 0 })
          : part("server.scan.marketplace", { marketplace: m, count: c ?? 0 }),
    );
  return where.length > 0
    ? part("server.scan.notUnderstoodWhere", { count: n, where })
    : part("server.scan.notUnderstood", { count: n });
}
