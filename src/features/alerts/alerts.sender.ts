/**
 * The alert outbox and its sender. `enqueue` writes one outbox row per channel that chose the
 * event (inside the caller's transaction when there is one) and only wakes the sender: sending
 * never delays the event. The sender (one loop, `start`/`stop`) delivers due rows in the
 * background; on a timeout, 429 or 5xx a row is tried again after RETRY_DELAYS_MS (or the far
 * side's Retry-After), at most MAX_ATTEMPTS times; a 4xx other than 429 is not retried. A channel
 * that has failed for a day is paused and its user told in the bell. Rows are in the database
 * until sent, so a restart loses nothing (a row being sent when the process died is sent again).
 *
 * Quiet hours: rows queued during them wait, and go out as ONE summary when they end.
 */

import type { AlertChannelEvent } from "../../contract/events.ts";
import type { AlertEvent, NotificationLevel } from "../../contract/index.ts";
import type { TextPart } from "../../contract/text.ts";
import type { AlertChannelRow, AlertOutboxRow, OrderRow } from "../../db/schema.ts";
import type { Language } from "../../i18n/languages.ts";
import { english, text } from "../../i18n/text.ts";
import { languageOrDefault, translate } from "../../i18n/translate.ts";
import type { Logger } from "../../log.ts";
import { orderPath } from "../../util/app-links.ts";
import { textMessage } from "../mailbox/mailbox.outage.ts";
import { type NotificationMessage, part } from "../notifications/message.ts";
import type { NotificationAlert } from "../notifications/notifications.service.ts";
import { eventsOf } from "./alerts.codec.ts";
import { quietHoursOf, quietUntil } from "./alerts.quiet-hours.ts";
import type { AlertsRepo, ChannelForAlert } from "./alerts.repo.ts";
import type { AlertPayload, SendOutcome } from "./senders.ts";

export const MAX_ATTEMPTS = 5;
/** Waits before the 2nd, 3rd, 4th and 5th try (Retry-After wins when the far side sent one). */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000];
/** A Retry-After longer than this is shortened to it. */
const RETRY_AFTER_CAP_MS = 6 * 3600_000;
/** A channel failing this long (every try since the first failure) is paused. */
export const PAUSE_AFTER_MS = 24 * 3600_000;
const POSTPONE_AFTER_ERROR_MS = 5 * 60_000;
/** Deliveries kept per channel for the Account page. */
export const DELIVERIES_KEPT = 20;

const URGENT: ReadonlySet<AlertEvent> = new Set([
  "review_overdue",
  "mailbox_attention",
  "disk_nearly_full",
  "mailbox_supervisor_failing",
]);

/**
 * A delivery's result as stored: its English words (`result`, for API clients) and the text
 * itself (`resultContent`, said in the reader's language; docs/i18n.md "Server texts").
 */
export function resultOf(t: TextPart): { result: string; resultContent: string } {
  return { result: english(t), resultContent: JSON.stringify(t) };
}

/** One alert, or the summary of the alerts held during quiet hours (in the user's language). */
function payloadOf(rows: AlertOutboxRow[], sentAt: string, language: Language): AlertPayload {
  const first = rows[0] as AlertOutboxRow;
  if (rows.length === 1) {
    const order = first.orderJson ? (JSON.parse(first.orderJson) as AlertPayload["order"]) : null;
    return {
      event: first.event as AlertPayload["event"],
      title: first.title,
      message: first.message,
      path: order ? orderPath(order.id) : null,
      order,
      urgent: URGENT.has(first.event as AlertEvent),
      sentAt,
      language,
    };
  }
  const lines = rows.map((r) => `• ${r.title}: ${r.message}`);
  return {
    event: "summary",
    title: translate(language, "server.alerts.quietSummary", { count: rows.length }),
    message: lines.join("\n").slice(0, 3500),
    path: null,
    order: null,
    urgent: rows.some((r) => URGENT.has(r.event as AlertEvent)),
    sentAt,
    language,
  };
}

export function createSender(deps: {
  repo: AlertsRepo;
  log: Logger;
  clock: () => Date;
  retryDelaysMs?: readonly number[];
  /** Sends one payload to the channel; never throws. */
  send: (row: AlertChannelRow, payload: AlertPayload) => Promise<SendOutcome>;
  /** The bell: tells a user their channel was paused (no event kind: never an alert itself). */
  notify: (userId: number, level: NotificationLevel, message: NotificationMessage) => unknown;
  timeZoneOf: (userId: number) => string | null;
  findOrder: (userId: number, orderId: number) => OrderRow | undefined;
  publishChange: (userId: number, type: AlertChannelEvent) => void;
}) {
  const { repo, log, clock, send, publishChange } = deps;
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;

  /** What one attempt did to the channel: success clears failures, a day of them pauses it. */
  function afterAttempt(row: AlertChannelRow, outcome: SendOutcome, nowIso: string) {
    if (outcome.kind === "sent") {
      if (row.failingSince) repo.updateChannel(row.id, { failingSince: null });
      return;
    }
    const since = row.failingSince ?? nowIso;
    const gone = outcome.kind === "give-up" && outcome.gone === true;
    const day = Date.parse(nowIso) - Date.parse(since) >= PAUSE_AFTER_MS;
    if (!gone && !day) {
      if (!row.failingSince) repo.updateChannel(row.id, { failingSince: since });
      return;
    }
    const reason = gone
      ? outcome.text
      : text("alerts.server.failedForADay", { answer: [outcome.text] });
    repo.updateChannel(row.id, {
      failingSince: since,
      pausedAt: nowIso,
      pausedReason: english(reason),
      pausedReasonContent: JSON.stringify(reason),
    });
    repo.failPending(row.id, resultOf(text("alerts.server.notSentWasPaused")), nowIso);
    log.warn({ channelId: row.id, type: row.type }, "alerts: channel paused");
    try {
      // The far side's answer is the delivery's sentence, said in the reader's language.
      deps.notify(row.userId, "warning", [
        gone
          ? part("server.alerts.paused", { channel: row.name, reason: [textMessage(reason)] })
          : part("server.alerts.pausedForADay", {
              channel: row.name,
              answer: [textMessage(outcome.text)],
            }),
      ]);
    } catch (err) {
      log.error({ err }, "alerts: could not tell the user about a paused channel");
    }
  }

  /** The rows' state after one attempt at sending them (one row, or a quiet-hours summary). */
  function record(batch: AlertOutboxRow[], outcome: SendOutcome, at: Date, attempts: number) {
    const ids = batch.map((r) => r.id);
    const atIso = at.toISOString();
    if (outcome.kind === "sent") {
      repo.updateOutbox(ids, {
        status: "sent",
        attempts,
        ...resultOf(
          batch.length > 1
            ? text("alerts.server.sentSummary", { result: [outcome.text], count: batch.length })
            : outcome.text,
        ),
        finishedAt: atIso,
      });
    } else if (outcome.kind === "retry" && attempts < MAX_ATTEMPTS) {
      const wait =
        outcome.retryAfterMs !== null
          ? Math.min(outcome.retryAfterMs, RETRY_AFTER_CAP_MS)
          : (delays[attempts - 1] ?? delays.at(-1) ?? 60_000);
      repo.updateOutbox(ids, {
        attempts,
        ...resultOf(text("alerts.server.tryingAgain", { result: [outcome.text] })),
        nextAttemptAt: new Date(at.getTime() + wait).toISOString(),
      });
    } else {
      repo.updateOutbox(ids, {
        status: "failed",
        attempts,
        ...resultOf(
          outcome.kind === "retry"
            ? text("alerts.server.gaveUp", { result: [outcome.text], count: attempts })
            : outcome.text,
        ),
        finishedAt: atIso,
      });
    }
  }

  /** Sends the channel's due rows: quiet-hours rows as one summary, the others one by one. */
  async function deliverChannel(channelId: number) {
    const row = repo.channelById(channelId);
    const now = clock();
    const nowIso = now.toISOString();
    const due = repo.dueForChannel(channelId, nowIso);
    if (!row || due.length === 0) return;
    if (!row.enabled || row.pausedAt) {
      repo.updateOutbox(
        due.map((r) => r.id),
        {
          status: "failed",
          ...resultOf(
            text(row.pausedAt ? "alerts.server.notSentPaused" : "alerts.server.notSentOff"),
          ),
          finishedAt: nowIso,
        },
      );
      return;
    }
    const until = quietUntil(now, deps.timeZoneOf(row.userId), quietHoursOf(row));
    if (until) {
      // Still quiet (a retry, or the clock moved): wait for the end, together.
      repo.updateOutbox(
        due.map((r) => r.id),
        { quiet: true, nextAttemptAt: until.toISOString() },
      );
      return;
    }
    const held = due.filter((r) => r.quiet);
    const batches = [
      ...(held.length > 0 ? [held] : []),
      ...due.filter((r) => !r.quiet).map((r) => [r]),
    ];
    for (const batch of batches) {
      if (stopped) return;
      const current = repo.channelById(channelId);
      if (!current || current.pausedAt) return;
      const language = languageOrDefault(repo.languageOf(current.userId));
      const payload = payloadOf(batch, clock().toISOString(), language);
      const outcome = await send(current, payload);
      const at = clock();
      const attempts = Math.max(...batch.map((r) => r.attempts)) + 1;
      repo.transaction(() => {
        record(batch, outcome, at, attempts);
        afterAttempt(current, outcome, at.toISOString());
        repo.pruneFinished(channelId, DELIVERIES_KEPT);
      });
      log.info(
        {
          channelId,
          type: current.type,
          events: batch.map((r) => r.event),
          outcome: outcome.kind,
          attempts,
        },
        "alerts: delivery",
      );
      publishChange(current.userId, "alert-channel.delivered");
    }
  }

  // The one sender loop: kick() wakes it; a timer wakes it for the next due row.
  let stopped = true;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let kickQueued = false;
  /** Resolves when the loop has nothing more to do now (tests wait on the far side instead). */
  const idleWaiters: (() => void)[] = [];

  async function runLoop() {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const due = repo.due(clock().toISOString(), 100);
        if (due.length === 0) break;
        const channels = [...new Set(due.map((r) => r.channelId))];
        await Promise.all(
          channels.map((id) =>
            deliverChannel(id).catch((err) => {
              // A bug, not the far side: try again in a while instead of at once, forever.
              log.error({ err, channelId: id }, "alerts: delivery failed");
              const later = new Date(clock().getTime() + POSTPONE_AFTER_ERROR_MS).toISOString();
              repo.updateOutbox(
                repo.dueForChannel(id, clock().toISOString()).map((r) => r.id),
                {
                  nextAttemptAt: later,
                  ...resultOf(text("alerts.server.serverError")),
                },
              );
            }),
          ),
        );
      }
    } while (again && !stopped);
  }

  function schedule() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = null;
    const next = repo.nextDue();
    if (!next) return;
    const wait = Math.max(0, Date.parse(next) - clock().getTime());
    timer = setTimeout(kick, Math.min(wait, 3600_000));
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runLoop()
      .catch((err) => log.error({ err }, "alerts: sender loop failed"))
      .finally(() => {
        running = null;
        schedule();
        for (const w of idleWaiters.splice(0)) w();
      });
  }

  return {
    /**
     * Called by notify() after it stored a notification with an event kind: one outbox row per
     * channel of the user that chose the event. Never throws (the notification is what matters);
     * the sending happens later, in the loop.
     */
    enqueue(userId: number, title: string, message: string, tag: NotificationAlert): void {
      try {
        const kinds = (Array.isArray(tag.event) ? tag.event : [tag.event]) as AlertEvent[];
        const channels = repo
          .channelsForAlert(userId)
          .map((c) => ({ c, event: kinds.find((k) => eventsOf(c).includes(k)) }))
          .filter((x): x is { c: ChannelForAlert; event: AlertEvent } => x.event !== undefined);
        if (channels.length === 0) return;
        const order = tag.orderId !== undefined ? deps.findOrder(userId, tag.orderId) : undefined;
        const orderJson = order
          ? JSON.stringify({
              id: order.id,
              number: order.amazonOrderNumber,
              product: order.productName,
              status: order.status,
            })
          : null;
        const now = clock();
        const zone = deps.timeZoneOf(userId);
        const language = languageOrDefault(repo.languageOf(userId));
        // One write for all of them (a savepoint inside the caller's transaction, if any).
        repo.transaction(() =>
          repo.queue(
            channels.map(({ c, event }) => {
              const until = quietUntil(now, zone, quietHoursOf(c));
              return {
                channelId: c.id,
                event,
                title: title || translate(language, `server.alertEvent.${event}`),
                message,
                orderJson,
                quiet: until !== null,
                nextAttemptAt: (until ?? now).toISOString(),
              };
            }),
          ),
        );
        // After the caller's transaction, and never in its way; one wake-up for a burst.
        if (!kickQueued) {
          kickQueued = true;
          setTimeout(() => {
            kickQueued = false;
            kick();
          }, 0);
        }
      } catch (err) {
        log.error({ err, userId }, "alerts: could not queue an alert");
      }
    },

    /** Starts the loop: what waited in the outbox across a restart goes out now. */
    start() {
      if (!stopped) return;
      stopped = false;
      kick();
    },
    /** Stops the loop; an alert being sent finishes (within the request timeout). */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    kick,
    idle(): Promise<void> {
      if (!running) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
