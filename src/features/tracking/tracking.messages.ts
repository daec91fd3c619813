/**
 * What tracking tells people (docs/messages.md): the update-all summary, the delivered and
 * trouble notifications, the warnings after saving a number, and the errors of a single look-up.
 */

import { CARRIER_LABELS } from "../../contract/constants.ts";
import type { Carrier } from "../../contract/index.ts";
import type {
  TrackingFailureReason,
  TrackingProblem,
  TrackingResult,
} from "../../tracking/types.ts";
import { orderPath, reviewLink } from "../../util/app-links.ts";
import { AppError } from "../../util/errors.ts";
import { plural } from "../../util/plural.ts";
import { type NotificationMessage, part, yesNo } from "../notifications/message.ts";

export const CARRIER_UNKNOWN_WARNING =
  "The carrier could not be recognised from this tracking number; choose it by hand.";
export const PREFERENCES_SAVED = "Tracking preferences saved";
export const NO_SHIPPED_ORDERS = "No shipped orders with tracking numbers to check.";

export const CARRIER_NAMES: Record<Carrier, string> = {
  ...CARRIER_LABELS,
  AMAZON: "Amazon Logistics",
};
const ENV_PREFIX: Partial<Record<Carrier, string>> = { UPS: "UPS", FEDEX: "FEDEX", USPS: "USPS" };
/** Names listed in a delivered notification before "and N more". */
const NOTIFY_NAMES = 5;

/** The failures of an update-all, by carrier and reason (a count and one carrier message). */
export type FailureTally = Map<
  Carrier,
  Map<TrackingFailureReason, { count: number; sample: string }>
>;

/** Short reason texts for summaries and warnings. */
export const REASON_TEXT: Record<TrackingFailureReason, string> = {
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

/** The notification about orders that became Received by carrier tracking. */
export function deliveredNotice(
  delivered: { id: number; name: string; details: string | null }[],
): NotificationMessage {
  const first = delivered[0];
  if (delivered.length === 1 && first) {
    return [
      part(
        "server.tracking.delivered",
        { product: first.name, hasDetails: yesNo(first.details), details: first.details ?? "" },
        reviewLink(first.id),
      ),
    ];
  }
  const names = delivered.slice(0, NOTIFY_NAMES).map((d) => d.name);
  const more = delivered.length - names.length;
  return [
    more > 0
      ? part("server.tracking.deliveredManyMore", { count: delivered.length, names, more })
      : part("server.tracking.deliveredMany", { count: delivered.length, names }),
  ];
}

const PROBLEM_MESSAGES: Record<TrackingProblem | "not-found", string> = {
  "failed-attempt": "server.tracking.failedAttempt",
  returned: "server.tracking.returned",
  "not-found": "server.tracking.notFound",
  exception: "server.tracking.problem",
};

/** The user's notification about trouble with one parcel. */
export function problemNotice(
  o: { id: number; name: string; number: string },
  carrier: Carrier,
  problem: TrackingProblem | "not-found",
  status: string | null,
  notFoundChecks: number,
): NotificationMessage {
  return [
    part(
      PROBLEM_MESSAGES[problem] ?? "server.tracking.problem",
      {
        carrier: CARRIER_NAMES[carrier],
        product: o.name,
        number: o.number,
        checks: notFoundChecks,
        hasStatus: yesNo(status),
        status: status ?? "",
      },
      orderPath(o.id, { from: "/" }),
    ),
  ];
}
/** The HTTP answer for a single look-up that got no answer. */
export function failureError(
  carrier: Carrier,
  number: string,
  reason: TrackingFailureReason,
  retryAfterMs?: number,
): AppError {
  const name = CARRIER_NAMES[carrier];
  const env = ENV_PREFIX[carrier] ?? carrier;
  switch (reason) {
    case "not-configured":
      return new AppError(503, "carrier_not_configured", { carrier: name, env });
    case "unsupported":
      return unsupportedError(carrier);
    case "not-found":
      return new AppError(422, "tracking_number_unknown", { carrier: name, number });
    case "rate-limited": {
      const secs = Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 1000));
      return new AppError(
        429,
        "carrier_rate_limited",
        secs >= 120
          ? { carrier: name, count: Math.ceil(secs / 60), unit: "minutes" }
          : { carrier: name, count: secs, unit: "seconds" },
        undefined,
        { "Retry-After": String(secs) },
      );
    }
    case "timeout":
      return new AppError(504, "carrier_timeout", { carrier: name });
    case "auth-failed":
      return new AppError(502, "carrier_auth_failed", { carrier: name, env });
    case "unreadable":
      return new AppError(502, "carrier_unreadable", { carrier: name });
    default:
      return new AppError(502, "carrier_unavailable", { carrier: name });
  }
}

export function unsupportedError(carrier: Carrier | null): AppError {
  if (carrier === "AMAZON") {
    return new AppError(422, "amazon_no_tracking");
  }
  if (carrier === "OTHER") {
    return new AppError(422, "carrier_not_supported");
  }
  return new AppError(422, "carrier_unknown");
}

/** The warnings of PUT tracking when the carrier's answer is not there (yet). */
export const savedWarnings = {
  notConfigured: (carrier: Carrier) =>
    `${CARRIER_NAMES[carrier]} tracking is not set up on this server, so the delivery of this order is not checked automatically.`,
  failed: (carrier: Carrier, reason: TrackingFailureReason) =>
    `Could not get tracking information from ${CARRIER_NAMES[carrier]}: ${REASON_TEXT[reason]}. It will be checked again at the next update.`,
  notYet: (carrier: Carrier) =>
    `${CARRIER_NAMES[carrier]} has not answered yet; this order is updated as soon as it does.`,
};

/** 409 for an order whose tracking is not looked up. */
export const noNumberError = () => new AppError(409, "tracking_number_missing");
export const canceledError = () => new AppError(409, "tracking_order_canceled");

export function noDateWarning(carrier: Carrier, r: TrackingResult): string | null {
  if (r.delivered || r.expectedDelivery) return null;
  return `${CARRIER_NAMES[carrier]} has not given an expected delivery date for this parcel yet.`;
}

/** The update-all summary for people (docs/messages.md shows it in the "Tracking Update Completed" toast). */
export function summary(s: {
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
      `Checked ${plural(looked, { one: "shipped order", other: "shipped orders" })}: ${checked.join(", ")}.`,
    );
  } else parts.push("No shipped order could be checked with a carrier.");
  if (s.amazon > 0) {
    parts.push(
      `Skipped ${plural(s.amazon, { one: "Amazon Logistics order", other: "Amazon Logistics orders" })} (they update from Amazon's delivery emails).`,
    );
  }
  if (s.other > 0) {
    parts.push(
      `Skipped ${plural(s.other, { one: "order", other: "orders" })} whose carrier cannot be looked up (only UPS, FedEx and USPS can).`,
    );
  }
  for (const [carrier, n] of s.notConfigured) {
    parts.push(
      `Skipped ${plural(n, { one: `${CARRIER_NAMES[carrier]} order`, other: `${CARRIER_NAMES[carrier]} orders` })}: ${CARRIER_NAMES[carrier]} tracking is not set up on this server.`,
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
      `Could not check ${plural(n, { one: `${CARRIER_NAMES[carrier]} order`, other: `${CARRIER_NAMES[carrier]} orders` })} (${reasons.join("; ")}).`,
    );
  }
  if (failed > 0) parts.push("They will be tried again at the next update.");
  const none = noNumberText(s.noNumber);
  if (none) parts.push(none);
  return parts.join(" ");
}

/** The Shipped orders update-all cannot look at, and what makes them checkable. */
export function noNumberText(n: number): string | null {
  if (n === 0) return null;
  return n === 1
    ? "1 shipped order has no tracking number: add one to have it checked."
    : `${n} shipped orders have no tracking number: add one to have them checked.`;
}
