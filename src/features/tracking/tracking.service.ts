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
 * The texts are in tracking.messages.ts, the update-all run in tracking.update-all.ts.
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
import pTimeout from "p-timeout";
import { DEFAULT_TRACKING_UPDATE_TIME } from "../../contract/constants.ts";
import type {
  Carrier,
  TrackingPreferences,
  TrackingPreferencesBody,
  TrackingUpdateResponse,
  UpdateAllTrackingResponse,
  UpdateOrderTrackingResponse,
} from "../../contract/index.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import type { Logger } from "../../log.ts";
import type { CarrierLookup, TrackingOutcome, TrackingResult } from "../../tracking/types.ts";
import { badRequest, notFound } from "../../util/errors.ts";
import { canonicalTimeZone } from "../../util/time-zone.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import { DELIVERED_STATUSES, toOrder } from "../orders/order-model.ts";
import type { OrderPatch, OrdersRepo } from "../orders/orders.repo.ts";
import {
  canceledError,
  carrierUnknownWarning,
  deliveredNotice,
  failureError,
  noDateWarning,
  noNumberError,
  PREFERENCES_SAVED,
  savedWarnings,
  unsupportedError,
} from "./tracking.messages.ts";
import type { TrackingRepo } from "./tracking.repo.ts";
import { LOOKUP_CARRIERS, runUpdateAll, type UpdateTrigger } from "./tracking.update-all.ts";

/** The test of tracking problems counts its checks by it. */
export { NOT_FOUND_CHECKS } from "./tracking.update-all.ts";

const DETAILS_MAX = 500;

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

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));

/** The carrier's delivery time as a stored instant (UTC ISO); null when absent or unreadable. */
function deliveredInstant(v: string | null, now: Date): string | null {
  if (!v) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  // A time in the future (clock skew, a bad answer) is not believed beyond now.
  return new Date(Math.min(t, now.getTime())).toISOString();
}

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
    const first = delivered[0];
    deps.notify(userId, "information", deliveredNotice(delivered), {
      event: "delivered",
      ...(delivered.length === 1 && first ? { orderId: first.id } : {}),
    });
  }

  return {
    getPreferences(userId: number): TrackingPreferences {
      const row = deps.repo.scheduleRow(userId);
      if (!row) throw notFound("user_not_found");
      return {
        timezone: row.timezone,
        trackingUpdateTime: row.trackingUpdateTime ?? DEFAULT_TRACKING_UPDATE_TIME,
      };
    },

    /** Saves the zone (also the user's display zone) and the daily time; reschedules at once. */
    savePreferences(userId: number, body: TrackingPreferencesBody) {
      const timezone = canonicalTimeZone(body.timezone);
      if (!timezone) {
        throw badRequest("tracking_timezone_unknown", { input: body.timezone.slice(0, 64) });
      }
      if (!deps.repo.savePreferences(userId, timezone, body.updateTime, clock().toISOString())) {
        throw notFound("user_not_found");
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
      const run = runUpdateAll(
        { ...deps, now: clock, apply, notifyDelivered },
        userId,
        trigger,
      ).finally(() => running.delete(userId));
      running.set(userId, run);
      return run;
    },

    isRunning: (userId: number): boolean => running.has(userId),

    /** POST /api/tracking/update-order/{id} and POST /api/orders/{id}/tracking/update. */
    async updateOrder(userId: number, orderId: number): Promise<UpdateOrderTrackingResponse> {
      const row = deps.orders.findForUser(userId, orderId);
      if (!row) throw notFound("order_not_found");
      const number = row.trackingNumber?.trim();
      if (!number) {
        throw noNumberError();
      }
      if (row.status === "Canceled") {
        throw canceledError();
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
      if (!applied) throw notFound("order_not_found");
      deps.events.publish(userId, "order.updated");
      if (applied.becameReceived) {
        notifyDelivered(userId, [
          { id: orderId, name: applied.row.productName, details: applied.row.deliveryDetails },
        ]);
      }
      const order = toOrder(applied.row);
      const warning = noDateWarning(carrier, outcome.result);
      return { delivered: outcome.result.delivered, order, ...warning };
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
      if (!carrier) return { ...base, ...carrierUnknownWarning() };
      // Amazon Logistics moves with Amazon's mail; Other has its tracker link: nothing to ask.
      if (saved.status !== "Shipped" || !LOOKUP_CARRIERS.includes(carrier)) return base;
      if (!canLookUp(carrier)) return { ...base, ...savedWarnings.notConfigured(carrier) };
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
          return { ...base, ...savedWarnings.failed(carrier, outcome.reason) };
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
          ...warning,
        };
      };
      const answered = deps.lookup.track(carrier, number).then(settle);
      const first = await pTimeout(answered, {
        milliseconds: deps.saveWaitMs ?? SAVE_LOOKUP_WAIT_MS,
        fallback: () => null,
      });
      if (first) return first;
      // Still asking: the late answer is applied (or its failure logged) by `settle`.
      answered.catch((err: unknown) =>
        log.error({ userId, orderId: saved.id, carrier, err }, "late tracking answer not applied"),
      );
      return { ...base, ...savedWarnings.notYet(carrier) };
    },
  };
}
export type TrackingService = ReturnType<typeof createTrackingService>;
