/**
 * Update-all (the daily check and "Update tracking"): every Shipped order with a tracking number
 * of one user, asked of its carrier RUN_WIDTH at a time, a failing carrier left alone for the rest
 * of the run, what each answer says applied to its order, trouble told once per order and
 * problem (table tracking_problems), and one summary for people.
 */
import type { Carrier, UpdateAllTrackingResponse } from "../../contract/index.ts";
import type { TextPart } from "../../contract/text.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { englishAll } from "../../i18n/text.ts";
import type { Logger } from "../../log.ts";
import type {
  CarrierLookup,
  TrackingFailureReason,
  TrackingProblem,
  TrackingResult,
} from "../../tracking/types.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import { type FailureTally, nothingToCheck, problemNotice, summary } from "./tracking.messages.ts";
import type { ProblemState, TrackedOrder, TrackingRepo } from "./tracking.repo.ts";

/** Carriers whose status an API can tell (with credentials or the aggregator). */
export const LOOKUP_CARRIERS: readonly Carrier[] = ["UPS", "FEDEX", "USPS"];

/**
 * Look-ups of one carrier asked at a time within a run: the adapters' own concurrency (4, in
 * src/tracking/carriers/*). More would only queue inside the lookup and be sent even after this
 * run decided to leave a failing carrier alone.
 */
const RUN_WIDTH = 4;
/** After this many timeouts/server errors in a row a carrier is left alone for the rest of a run. */
const CONSECUTIVE_FAILURES_TO_STOP = 3;
/** A number the carrier has not known at this many checks in a row is a tracking problem. */
export const NOT_FOUND_CHECKS = 3;

export type UpdateTrigger = "manual" | "schedule" | "start";

export type UpdateAllDeps = {
  repo: TrackingRepo;
  lookup: CarrierLookup;
  events: EventBus;
  notify: NotificationsService["notify"];
  log: Logger;
  now: () => Date;
  /** Writes an answer onto the order (null: the order changed its number or is gone). */
  apply: (
    userId: number,
    orderId: number,
    number: string,
    result: TrackingResult,
  ) => { row: OrderRow; becameReceived: boolean } | null;
  notifyDelivered: (
    userId: number,
    delivered: { id: number; name: string; details: string | null }[],
  ) => void;
};

/** One update-all: every Shipped order with a tracking number of the user. */
export async function runUpdateAll(
  deps: UpdateAllDeps,
  userId: number,
  trigger: UpdateTrigger,
): Promise<UpdateAllTrackingResponse> {
  const log = deps.log;
  const t0 = performance.now();
  const all = deps.repo.shippedWithTracking(userId);
  const noNumber = deps.repo.shippedWithoutTracking(userId);
  if (all.length === 0) {
    return {
      deliveredOrders: 0,
      totalProcessed: 0,
      successfulUpdates: 0,
      ...said(nothingToCheck(noNumber)),
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
          problemNotice(
            { id: o.id, name: o.productName, number },
            carrier,
            problem,
            status,
            NOT_FOUND_CHECKS,
          ),
          { event: "tracking_problem", orderId: o.id },
        );
      } catch (err) {
        log.error({ userId, orderId: o.id, err }, "could not notify about a tracking problem");
      }
    }
    deps.repo.saveProblemState(next, deps.now().toISOString());
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
          const applied = deps.apply(userId, o.id, o.trackingNumber, outcome.result);
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
  deps.notifyDelivered(userId, delivered);

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

  const parts = summary({
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
    ...said(parts),
  };
}

/** The summary's English words and its texts (src/contract/text.ts). */
function said(parts: TextPart[]): { message: string; messageParts: TextPart[] } {
  return { message: englishAll(parts), messageParts: parts };
}
