/**
 * Carrier tracking (docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/api.md, docs/messages.md): preferences, look-ups on demand and the daily
 * check's work. What a carrier answer does to an order:
 *
 * - Delivered: a Shipped (or Ordered) order becomes Received with datedelivered (the carrier's time,
 *   else now; an existing date is kept), deliverydetails (the one-line status) and
 *   lastTrackingUpdate, and the user gets a notification. A later-stage order only gets its details.
 * - Answered, not delivered: deliverydetails and lastTrackingUpdate; a carrier's expected date
 *   replaces the stored one and is a real date (expecteddeliveryestimated false: no Estimated badge).
 * - No answer (timeout, 5xx, 429, unreadable, unknown number, refused credentials, not configured):
 *   the order is left exactly as it was; the failure is logged once per carrier and reason per run,
 *   counted in the summary, and the order is looked at again at the next run.
 *
 * - Trouble (update-all: the daily check and "Update tracking"): a carrier reporting an exception,
 *   a failed delivery attempt or a return, or not knowing the number at NOT_FOUND_CHECKS checks in
 *   a row, gives the user one warning notification (alert event `tracking_problem`) per order and
 *   problem; the same problem at later checks is not told again, a different one is, and an answer
 *   without trouble clears it (table tracking_problems).
 *
 * Every order write goes through the orders repo; an `order` event follows (one per run for
 * update-all). Two update-alls for one user never overlap: a second call while one runs waits for
 * it and gets the same summary.
 *
 * Single-order look-up failures are AppErrors, never 500, and change nothing:
 *   404 Order not found (also another user's) · 409 no tracking number / canceled ·
 *   422 carrier that cannot be looked up (Amazon Logistics, Other, unknown) or a number the carrier
 *   does not know · 429 carrier limit (Retry-After) · 502 carrier error, unreadable answer or
 *   refused credentials · 503 carrier not set up on this server · 504 carrier timed out.
 */
import type {
  Carrier,
  TrackingPreferences,
  TrackingPreferencesBody,
  TrackingUpdateResponse,
  UpdateAllTrackingResponse,
  UpdateOrderTrackingResponse,
} from "../../contract/index.ts";
import { CARRIER_LABELS, DEFAULT_TRACKING_UPDATE_TIME } from "../../contract/index.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { AppError, badRequest, notFound } from "../../lib/errors.ts";
import { canonicalTimeZone } from "../../lib/time.ts";
import type { Logger } from "../../log.ts";
import type {
  CarrierLookup,
  TrackingFailureReason,
  TrackingOutcome,
  TrackingProblem,
  TrackingResult,
} from "../../tracking/types.ts";
import { html, type SafeHtml } from "../notifications/html.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import { DELIVERED_STATUSES, ORDER_NOT_FOUND, toOrder } from "../orders/order-model.ts";
import type { OrderPatch, OrdersRepo } from "../orders/orders.repo.ts";
import type { ProblemState, TrackedOrder, TrackingRepo } from "./tracking.repo.ts";

export const CARRIER_UNKNOWN_WARNING =
  "The carrier could not be recognised from this tracking number; choose it by hand.";
export const PREFERENCES_SAVED = "Tracking preferences saved";
export const NO_SHIPPED_ORDERS = "No shipped orders with tracking numbers to check.";

/** Carriers whose status an API can tell (with credentials or the aggregator). */
const LOOKUP_CARRIERS: readonly Carrier[] = ["UPS", "FEDEX", "USPS"];

const CARRIER_NAMES: Record<Carrier, string> = { ...CARRIER_LABELS, AMAZON: "Amazon Logistics" };
const ENV_PREFIX: Partial<Record<Carrier, string>> = { UPS: "UPS", FEDEX: "FEDEX", USPS: "USPS" };

/** Short reason texts for summaries and warnings. */
const REASON_TEXT: Record<TrackingFailureReason, string> = {
  "not-configured": "not set up on this server",
  unsupported: "cannot be looked up",
  "not-found": "the carrier does not know the number yet",
  "auth-failed": "the carrier refused this server's credentials",
  "rate-limited": "the carrier's look-up limit was reached",
  timeout: "the carrier did not answer in time",
  "server-error": "the carrier's service had an error",
  unreadable: "the carrier's answer could not be read",
};

/** "2 timed out": the failures of one reason in an update-all summary. */
function countText(reason: TrackingFailureReason, n: number, name: string): string {
  switch (reason) {
    case "not-found":
      return `${n} not known to ${name} yet`;
    case "timeout":
      return `${n} timed out`;
    case "server-error":
      return `${n} failed with a ${name} service error`;
    case "rate-limited":
      return `${n} over ${name}'s look-up limit`;
    case "unreadable":
      return `${n} with an answer that could not be read`;
    case "auth-failed":
      return `${n} refused: ${name} rejected this server's credentials`;
    case "not-configured":
      return `${n} not set up on this server`;
    default:
      return `${n} cannot be looked up`;
  }
}

/**
 * Look-ups of one carrier asked at a time within a run: the adapters' own concurrency (4, in
 * src/tracking/carriers/*). More would only queue inside the lookup and be sent even after this
 * run decided to leave a failing carrier alone.
 */
const RUN_WIDTH = 4;
/** After this many timeouts/server errors in a row a carrier is left alone for the rest of a run. */
const CONSECUTIVE_FAILURES_TO_STOP = 3;
/** Names listed in a delivered notification before "and N more". */
const NOTIFY_NAMES = 5;
/** A number the carrier has not known at this many checks in a row is a tracking problem. */
export const NOT_FOUND_CHECKS = 3;
const DETAILS_MAX = 500;

export type UpdateTrigger = "manual" | "schedule" | "start";

export type TrackingServiceDeps = {
  repo: TrackingRepo;
  orders: OrdersRepo;
  lookup: CarrierLookup;
  events: EventBus;
  notify: NotificationsService["notify"];
  log: Logger;
  now?: () => Date;
  /** Called after a user's zone or daily time changed (the scheduler reschedules them). */
  onPreferencesChanged?: (userId: number) => void;
  /** How long saving a tracking number waits for the carrier (default SAVE_LOOKUP_WAIT_MS). */
  saveWaitMs?: number;
};

/**
 * Saving a tracking number waits this long for the carrier's answer (which may take up to
 * TRACKING_TIMEOUT_MS): past it, the save answers with a warning and the answer is applied when
 * it comes (a live event updates the open page), so the edit form is never held for long.
 */
export const SAVE_LOOKUP_WAIT_MS = 5_000;

const reviewLink = (orderId: number) => `/orders/${orderId}/edit?from=/&section=review`;
const orderLink = (orderId: number) => `/orders/${orderId}/edit?from=/`;

/** The user's notification about trouble with one parcel. */
function problemNotice(
  o: { id: number; name: string; number: string },
  carrier: Carrier,
  problem: TrackingProblem | "not-found",
  status: string | null,
): SafeHtml {
  const name = CARRIER_NAMES[carrier];
  const open = html` <a href="${orderLink(o.id)}">Open the order</a>`;
  const said = status ? `: ${status}` : ".";
  switch (problem) {
    case "failed-attempt":
      return html`${name} could not deliver <strong>${o.name}</strong>${said}${open}`;
    case "returned":
      return html`${name} is returning <strong>${o.name}</strong> to the sender${said}${open}`;
    case "not-found":
      return html`${name} still does not know tracking number ${o.number} of <strong>${o.name}</strong> after ${NOT_FOUND_CHECKS} checks: check the number on the order.${open}`;
    default:
      return html`${name} reports a problem with <strong>${o.name}</strong>${said}${open}`;
  }
}
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));

/** The carrier's delivery time as a stored instant (UTC ISO); null when absent or unreadable. */
function deliveredInstant(v: string | null, now: Date): string | null {
  if (!v) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  // A time in the future (clock skew, a bad answer) is not believed beyond now.
  return new Date(Math.min(t, now.getTime())).toISOString();
}

/** The HTTP answer for a single look-up that got no answer. */
function failureError(
  carrier: Carrier,
  number: string,
  reason: TrackingFailureReason,
  retryAfterMs?: number,
): AppError {
  const name = CARRIER_NAMES[carrier];
  const env = ENV_PREFIX[carrier] ?? carrier;
  switch (reason) {
    case "not-configured":
      return new AppError(
        503,
        `${name} tracking is not set up on this server: the administrator adds ${env}_CLIENT_ID and ${env}_CLIENT_SECRET (see the README).`,
      );
    case "unsupported":
      return unsupportedError(carrier);
    case "not-found":
      return new AppError(
        422,
        `${name} does not know tracking number ${number} yet. It will be checked again at the next update.`,
      );
    case "rate-limited": {
      const secs = Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 1000));
      const wait =
        secs >= 120 ? `${Math.ceil(secs / 60)} minutes` : plural(secs, "second", "seconds");
      return new AppError(
        429,
        `${name} look-ups are limited for now; try again in ${wait}.`,
        undefined,
        { "Retry-After": String(secs) },
      );
    }
    case "timeout":
      return new AppError(504, `${name} did not answer in time; try again later.`);
    case "auth-failed":
      return new AppError(
        502,
        `${name} refused this server's credentials; the administrator should check ${env}_CLIENT_ID and ${env}_CLIENT_SECRET.`,
      );
    case "unreadable":
      return new AppError(502, `${name} sent an answer that could not be read; try again later.`);
    default:
      return new AppError(502, `${name} tracking is not answering right now; try again later.`);
  }
}

function unsupportedError(carrier: Carrier | null): AppError {
  if (carrier === "AMAZON") {
    return new AppError(
      422,
      "Amazon Logistics has no public tracking: this order becomes Received from Amazon's delivery email.",
    );
  }
  if (carrier === "OTHER") {
    return new AppError(
      422,
      "This carrier cannot be looked up here (only UPS, FedEx and USPS); open the tracking link instead.",
    );
  }
  return new AppError(
    422,
    "The carrier of this tracking number is not known; choose UPS, FedEx or USPS to look it up.",
  );
}

type FailureTally = Map<Carrier, Map<TrackingFailureReason, { count: number; sample: string }>>;

export function createTrackingService(deps: TrackingServiceDeps) {
  const clock = deps.now ?? (() => new Date());
  const log = deps.log;
  /** Update-alls in progress, by user: a second call joins the first. */
  const running = new Map<number, Promise<UpdateAllTrackingResponse>>();

  const canLookUp = (carrier: Carrier | null): carrier is Carrier =>
    carrier !== null &&
    LOOKUP_CARRIERS.includes(carrier) &&
    deps.lookup.supported().includes(carrier);

  /**
   * Writes what the carrier said onto the order, unless the order changed its tracking number or
   * disappeared while we asked. Returns the stored row and whether it just became Received.
   */
  function apply(
    userId: number,
    orderId: number,
    number: string,
    result: TrackingResult,
  ): { row: OrderRow; becameReceived: boolean; changed: boolean } | null {
    const cur = deps.orders.findForUser(userId, orderId);
    if (!cur || cur.trackingNumber !== number) return null;
    const now = clock();
    const nowIso = now.toISOString();
    const details = result.status.replace(/\s+/g, " ").trim().slice(0, DETAILS_MAX) || null;
    const patch: OrderPatch = { lastTrackingUpdate: nowIso };
    let becameReceived = false;
    if (details && details !== cur.deliveryDetails) patch.deliveryDetails = details;
    if (result.delivered) {
      if (cur.status === "Shipped" || cur.status === "Ordered") {
        patch.status = "Received";
        becameReceived = true;
      }
      if (!cur.dateDelivered) {
        patch.dateDelivered = deliveredInstant(result.deliveredAt, now) ?? nowIso;
      }
    } else if (
      result.expectedDelivery &&
      isDay(result.expectedDelivery) &&
      (result.expectedDelivery !== cur.expectedDeliveryDate || cur.expectedDeliveryEstimated)
    ) {
      patch.expectedDeliveryDate = result.expectedDelivery;
      patch.expectedDeliveryEstimated = false;
    }
    const changed = Object.keys(patch).length > 1;
    if (changed) patch.updatedAt = nowIso;
    const row = deps.orders.update(userId, orderId, patch);
    if (!row) return null;
    return { row, becameReceived, changed };
  }

  function notifyDelivered(
    userId: number,
    delivered: { id: number; name: string; details: string | null }[],
  ) {
    if (delivered.length === 0) return;
    let message: SafeHtml;
    const first = delivered[0];
    if (delivered.length === 1 && first) {
      message = html`Delivered: <strong>${first.name}</strong>${first.details ? ` (${first.details})` : ""}. <a href="${reviewLink(first.id)}">Write the review</a>`;
    } else {
      const shown = delivered.slice(0, NOTIFY_NAMES);
      const more = delivered.length - shown.length;
      message = html`<strong>${plural(delivered.length, "order", "orders")} delivered</strong> according to carrier tracking: ${shown.map(
        (d, i) => html`${i > 0 ? ", " : ""}${d.name}`,
      )}${more > 0 ? ` and ${more} more` : ""}.`;
    }
    deps.notify(userId, "information", message, {
      event: "delivered",
      ...(delivered.length === 1 && first ? { orderId: first.id } : {}),
    });
  }

  /** One update-all: every Shipped order with a tracking number of the user. */
  async function runAll(
    userId: number,
    trigger: UpdateTrigger,
  ): Promise<UpdateAllTrackingResponse> {
    const t0 = performance.now();
    const all = deps.repo.shippedWithTracking(userId);
    const noNumber = deps.repo.shippedWithoutTracking(userId);
    if (all.length === 0) {
      return {
        deliveredOrders: 0,
        totalProcessed: 0,
        successfulUpdates: 0,
        message: [NO_SHIPPED_ORDERS, noNumberText(noNumber)].filter(Boolean).join(" "),
      };
    }
    const supported = new Set(deps.lookup.supported());
    const groups = new Map<Carrier, TrackedOrder[]>();
    let amazon = 0;
    let other = 0;
    const notConfigured = new Map<Carrier, number>();
    for (const o of all) {
      const carrier = (o.carrier as Carrier | null) ?? null;
      if (carrier === "AMAZON") amazon++;
      else if (carrier === null || !LOOKUP_CARRIERS.includes(carrier)) other++;
      else if (!supported.has(carrier))
        notConfigured.set(carrier, (notConfigured.get(carrier) ?? 0) + 1);
      else {
        const g = groups.get(carrier) ?? [];
        g.push(o);
        groups.set(carrier, g);
      }
    }

    /** Trouble seen at earlier checks; what this check sees is noted (and told once) below. */
    const problems = deps.repo.problemStates(userId);
    const noteProblem = (
      o: TrackedOrder,
      number: string,
      carrier: Carrier,
      seen: TrackingProblem | "not-found" | null,
      status: string | null,
    ) => {
      const stored = problems.get(o.id);
      if (seen === null) {
        if (stored) deps.repo.clearProblemState(o.id);
        return;
      }
      const prev = stored?.trackingNumber === number ? stored : null;
      const next: ProblemState = {
        orderId: o.id,
        trackingNumber: number,
        notFoundChecks: seen === "not-found" ? (prev?.notFoundChecks ?? 0) + 1 : 0,
        notified: prev?.notified ?? null,
      };
      const problem =
        seen !== "not-found" ? seen : next.notFoundChecks >= NOT_FOUND_CHECKS ? seen : null;
      if (problem && problem !== next.notified) {
        next.notified = problem;
        try {
          deps.notify(
            userId,
            "warning",
            problemNotice({ id: o.id, name: o.productName, number }, carrier, problem, status),
            { event: "tracking_problem", orderId: o.id },
          );
        } catch (err) {
          log.error({ userId, orderId: o.id, err }, "could not notify about a tracking problem");
        }
      }
      deps.repo.saveProblemState(next, clock().toISOString());
    };

    let successful = 0;
    /** Answers reporting trouble (counted apart from "still on the way"). */
    let troubled = 0;
    let anyChange = false;
    const delivered: { id: number; name: string; details: string | null }[] = [];
    const failures: FailureTally = new Map();
    const fail = (carrier: Carrier, reason: TrackingFailureReason, message: string) => {
      const byReason = failures.get(carrier) ?? new Map();
      failures.set(carrier, byReason);
      const f = byReason.get(reason) ?? { count: 0, sample: message };
      f.count++;
      byReason.set(reason, f);
    };

    await Promise.all(
      [...groups].map(async ([carrier, orders]) => {
        let next = 0;
        let stopped: { reason: TrackingFailureReason; message: string } | null = null;
        let inARow = 0;
        const worker = async () => {
          while (next < orders.length) {
            const o = orders[next++];
            if (!o?.trackingNumber) continue;
            if (stopped) {
              fail(carrier, stopped.reason, stopped.message);
              continue;
            }
            const outcome = await deps.lookup.track(carrier, o.trackingNumber);
            if (!outcome.ok) {
              fail(carrier, outcome.reason, outcome.message);
              if (outcome.reason === "not-found") {
                noteProblem(o, o.trackingNumber, carrier, "not-found", null);
              }
              inARow =
                outcome.reason === "timeout" || outcome.reason === "server-error" ? inARow + 1 : 0;
              // A spent quota, refused credentials or a carrier that keeps failing: leave the
              // carrier alone for the rest of this run instead of asking again for every order.
              if (
                outcome.reason === "rate-limited" ||
                outcome.reason === "auth-failed" ||
                outcome.reason === "not-configured" ||
                inARow >= CONSECUTIVE_FAILURES_TO_STOP
              ) {
                stopped ??= { reason: outcome.reason, message: outcome.message };
              }
              continue;
            }
            inARow = 0;
            successful++;
            const applied = apply(userId, o.id, o.trackingNumber, outcome.result);
            if (!applied) continue;
            anyChange = true;
            if (outcome.result.problem && !outcome.result.delivered) troubled++;
            noteProblem(
              o,
              o.trackingNumber,
              carrier,
              outcome.result.problem ?? null,
              applied.row.deliveryDetails,
            );
            if (applied.becameReceived) {
              delivered.push({
                id: o.id,
                name: applied.row.productName,
                details: applied.row.deliveryDetails,
              });
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(RUN_WIDTH, orders.length) }, worker));
      }),
    );

    if (anyChange) deps.events.publish(userId, "order.updated");
    notifyDelivered(userId, delivered);

    // One log line per carrier and reason, however many orders failed (no storm).
    let failedCount = 0;
    for (const [carrier, byReason] of failures) {
      for (const [reason, f] of byReason) {
        failedCount += f.count;
        log.warn(
          { userId, trigger, carrier, reason, orders: f.count, sample: f.sample },
          "tracking look-ups failed; the orders are left unchanged and tried again at the next run",
        );
      }
    }
    for (const [carrier, n] of notConfigured) {
      log.info({ userId, trigger, carrier, orders: n }, "tracking skipped: carrier not configured");
    }

    const message = summary({
      noNumber,
      delivered: delivered.length,
      successful,
      troubled,
      amazon,
      other,
      notConfigured,
      failures,
    });
    log.info(
      {
        userId,
        trigger,
        total: all.length,
        successful,
        delivered: delivered.length,
        failed: failedCount,
        ms: Math.round(performance.now() - t0),
      },
      "tracking update finished",
    );
    return {
      deliveredOrders: delivered.length,
      totalProcessed: all.length,
      successfulUpdates: successful,
      message,
    };
  }

  return {
    getPreferences(userId: number): TrackingPreferences {
      const row = deps.repo.scheduleRow(userId);
      if (!row) throw notFound("User not found");
      return {
        timezone: row.timezone,
        trackingUpdateTime: row.trackingUpdateTime ?? DEFAULT_TRACKING_UPDATE_TIME,
      };
    },

    /** Saves the zone (also the user's display zone) and the daily time; reschedules at once. */
    savePreferences(userId: number, body: TrackingPreferencesBody) {
      const timezone = canonicalTimeZone(body.timezone);
      if (!timezone) {
        throw badRequest(
          `"${body.timezone.slice(0, 64)}" is not a known time zone. Please select a timezone from the list, such as America/Chicago.`,
        );
      }
      if (!deps.repo.savePreferences(userId, timezone, body.updateTime, clock().toISOString())) {
        throw notFound("User not found");
      }
      deps.events.publish(userId, "tracking-preferences.updated");
      deps.onPreferencesChanged?.(userId);
      return { success: true as const, message: PREFERENCES_SAVED };
    },

    /**
     * POST /api/tracking/update-all and the daily check. A call while the user's previous one is
     * still running waits for it and answers the same summary (nothing is looked up twice).
     */
    updateAll(
      userId: number,
      trigger: UpdateTrigger = "manual",
    ): Promise<UpdateAllTrackingResponse> {
      const inFlight = running.get(userId);
      if (inFlight) {
        log.info({ userId, trigger }, "tracking update already running: waiting for it");
        return inFlight;
      }
      const run = runAll(userId, trigger).finally(() => running.delete(userId));
      running.set(userId, run);
      return run;
    },

    isRunning: (userId: number): boolean => running.has(userId),

    /** POST /api/tracking/update-order/{id} and POST /api/orders/{id}/tracking/update. */
    async updateOrder(userId: number, orderId: number): Promise<UpdateOrderTrackingResponse> {
      const row = deps.orders.findForUser(userId, orderId);
      if (!row) throw notFound(ORDER_NOT_FOUND);
      const number = row.trackingNumber?.trim();
      if (!number) {
        throw new AppError(409, "This order has no tracking number yet; add one to look it up.");
      }
      if (row.status === "Canceled") {
        throw new AppError(409, "This order is canceled; its tracking is not looked up.");
      }
      const carrier = (row.carrier as Carrier | null) ?? null;
      if (carrier === null || !LOOKUP_CARRIERS.includes(carrier)) throw unsupportedError(carrier);
      if (!canLookUp(carrier)) throw failureError(carrier, number, "not-configured");
      const outcome = await deps.lookup.track(carrier, row.trackingNumber ?? number);
      if (!outcome.ok) {
        log.warn(
          { userId, orderId, carrier, reason: outcome.reason, message: outcome.message },
          "tracking look-up failed; the order is left unchanged",
        );
        throw failureError(carrier, number, outcome.reason, outcome.retryAfterMs);
      }
      const applied = apply(userId, orderId, row.trackingNumber ?? number, outcome.result);
      if (!applied) throw notFound(ORDER_NOT_FOUND);
      deps.events.publish(userId, "order.updated");
      if (applied.becameReceived) {
        notifyDelivered(userId, [
          { id: orderId, name: applied.row.productName, details: applied.row.deliveryDetails },
        ]);
      }
      const order = toOrder(applied.row);
      const warning = noDateWarning(carrier, outcome.result);
      return { delivered: outcome.result.delivered, order, ...(warning ? { warning } : {}) };
    },

    /**
     * PUT /api/orders/{id}/tracking, after the number and carrier were saved: a Shipped order with
     * a carrier we can ask is looked up; `warning` says when the information is incomplete. A
     * failed look-up leaves the saved order as it is (the save itself succeeded).
     */
    async afterTrackingSaved(userId: number, saved: OrderRow): Promise<TrackingUpdateResponse> {
      const order = toOrder(saved);
      const base: TrackingUpdateResponse = {
        order,
        trackingInfo: {
          delivered: DELIVERED_STATUSES.includes(order.status),
          expectedDelivery: order.expecteddeliverydate,
        },
      };
      const number = saved.trackingNumber;
      if (!number) return base;
      const carrier = (saved.carrier as Carrier | null) ?? null;
      if (!carrier) return { ...base, warning: CARRIER_UNKNOWN_WARNING };
      // Amazon Logistics moves with Amazon's mail; Other has its tracker link: nothing to ask.
      if (saved.status !== "Shipped" || !LOOKUP_CARRIERS.includes(carrier)) return base;
      const name = CARRIER_NAMES[carrier];
      if (!canLookUp(carrier)) {
        return {
          ...base,
          warning: `${name} tracking is not set up on this server, so the delivery of this order is not checked automatically.`,
        };
      }
      // What the carrier's answer does to the order, whenever it comes.
      const settle = (outcome: TrackingOutcome): TrackingUpdateResponse => {
        if (!outcome.ok) {
          log.warn(
            {
              userId,
              orderId: saved.id,
              carrier,
              reason: outcome.reason,
              message: outcome.message,
            },
            "tracking look-up after saving failed; the order is left as saved",
          );
          return {
            ...base,
            warning: `Could not get tracking information from ${name}: ${REASON_TEXT[outcome.reason]}. It will be checked again at the next update.`,
          };
        }
        const applied = apply(userId, saved.id, number, outcome.result);
        if (!applied) return base;
        deps.events.publish(userId, "order.updated");
        if (applied.becameReceived) {
          notifyDelivered(userId, [
            { id: saved.id, name: applied.row.productName, details: applied.row.deliveryDetails },
          ]);
        }
        const updated = toOrder(applied.row);
        const warning = noDateWarning(carrier, outcome.result);
        return {
          order: updated,
          trackingInfo: {
            delivered: outcome.result.delivered,
            expectedDelivery: outcome.result.expectedDelivery ?? updated.expecteddeliverydate,
          },
          ...(warning ? { warning } : {}),
        };
      };
      const answered = deps.lookup.track(carrier, number).then(settle);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), deps.saveWaitMs ?? SAVE_LOOKUP_WAIT_MS);
      });
      const first = await Promise.race([answered, waited]);
      clearTimeout(timer);
      if (first) return first;
      // Still asking: the late answer is applied (or its failure logged) by `settle`.
      answered.catch((err: unknown) =>
        log.error({ userId, orderId: saved.id, carrier, err }, "late tracking answer not applied"),
      );
      return {
        ...base,
        warning: `${name} has not answered yet; this order is updated as soon as it does.`,
      };
    },
  };
}
export type TrackingService = ReturnType<typeof createTrackingService>;

function noDateWarning(carrier: Carrier, r: TrackingResult): string | null {
  if (r.delivered || r.expectedDelivery) return null;
  return `${CARRIER_NAMES[carrier]} has not given an expected delivery date for this parcel yet.`;
}

/** The update-all summary for people (docs/messages.md shows it in the "Tracking Update Completed" toast). */
function summary(s: {
  noNumber: number;
  delivered: number;
  successful: number;
  troubled: number;
  amazon: number;
  other: number;
  notConfigured: Map<Carrier, number>;
  failures: FailureTally;
}): string {
  const parts: string[] = [];
  const onTheWay = s.successful - s.delivered - s.troubled;
  let failedTotal = 0;
  for (const byReason of s.failures.values())
    for (const f of byReason.values()) failedTotal += f.count;
  // Only the orders a carrier was asked about are "checked"; the skipped ones are said below.
  const looked = s.successful + failedTotal;
  if (looked > 0) {
    const checked = [`${s.delivered} delivered`, `${onTheWay} still on the way`];
    if (s.troubled > 0) checked.push(`${s.troubled} with a problem the carrier reported`);
    parts.push(
      `Checked ${plural(looked, "shipped order", "shipped orders")}: ${checked.join(", ")}.`,
    );
  } else parts.push("No shipped order could be checked with a carrier.");
  if (s.amazon > 0) {
    parts.push(
      `Skipped ${plural(s.amazon, "Amazon Logistics order", "Amazon Logistics orders")} (they update from Amazon's delivery emails).`,
    );
  }
  if (s.other > 0) {
    parts.push(
      `Skipped ${plural(s.other, "order", "orders")} whose carrier cannot be looked up (only UPS, FedEx and USPS can).`,
    );
  }
  for (const [carrier, n] of s.notConfigured) {
    parts.push(
      `Skipped ${plural(n, `${CARRIER_NAMES[carrier]} order`, `${CARRIER_NAMES[carrier]} orders`)}: ${CARRIER_NAMES[carrier]} tracking is not set up on this server.`,
    );
  }
  let failed = 0;
  for (const [carrier, byReason] of s.failures) {
    const reasons = [...byReason].map(([reason, f]) => {
      failed += f.count;
      return countText(reason, f.count, CARRIER_NAMES[carrier]);
    });
    const n = [...byReason.values()].reduce((a, f) => a + f.count, 0);
    parts.push(
      `Could not check ${plural(n, `${CARRIER_NAMES[carrier]} order`, `${CARRIER_NAMES[carrier]} orders`)} (${reasons.join("; ")}).`,
    );
  }
  if (failed > 0) parts.push("They will be tried again at the next update.");
  const none = noNumberText(s.noNumber);
  if (none) parts.push(none);
  return parts.join(" ");
}

/** The Shipped orders update-all cannot look at, and what makes them checkable. */
function noNumberText(n: number): string | null {
  if (n === 0) return null;
  return n === 1
    ? "1 shipped order has no tracking number: add one to have it checked."
    : `${n} shipped orders have no tracking number: add one to have them checked.`;
}
