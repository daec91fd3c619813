/**
 * What tracking tells people (docs/messages.md): the update-all summary, the delivered and
 * trouble notifications, the warnings after saving a number, and the errors of a single look-up.
 */

import { CARRIER_LABELS } from "../../contract/constants.ts";
import type { Carrier } from "../../contract/index.ts";
import type { TextPart, TextValue } from "../../contract/text.ts";
import { english, text } from "../../i18n/text.ts";
import type {
  TrackingFailureReason,
  TrackingProblem,
  TrackingResult,
} from "../../tracking/types.ts";
import { orderPath, reviewLink } from "../../util/app-links.ts";
import { AppError } from "../../util/errors.ts";
import { type NotificationMessage, part, yesNo } from "../notifications/message.ts";

export const PREFERENCES_SAVED = "Tracking preferences saved";

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

/** The catalog key of each failure reason (`tracking.server.reason.<key>`, `…failed`'s `reason`). */
const REASON_KEY: Record<TrackingFailureReason, string> = {
  "not-configured": "notConfigured",
  unsupported: "unsupported",
  "not-found": "notFound",
  "auth-failed": "authFailed",
  "rate-limited": "rateLimited",
  timeout: "timeout",
  "server-error": "serverError",
  unreadable: "unreadable",
};

/** "2 timed out": the failures of one reason in an update-all summary. */
function countText(reason: TrackingFailureReason, n: number, name: string): TextPart {
  return text(`tracking.server.reason.${REASON_KEY[reason]}`, { count: n, carrier: name });
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

/** A warning of a tracking answer: the English words, and the catalog id with its values (src/contract/text.ts). */
export type Warning = {
  warning: string;
  warningCode: string;
  warningValues?: Record<string, TextValue>;
};

function warning(code: string, values?: Record<string, TextValue>): Warning {
  const part = text(code, values);
  return {
    warning: english(part),
    warningCode: code,
    ...(values ? { warningValues: values } : {}),
  };
}

export const carrierUnknownWarning = () => warning("tracking.server.carrierUnknown");

/** The warnings of PUT tracking when the carrier's answer is not there (yet). */
export const savedWarnings = {
  notConfigured: (carrier: Carrier) =>
    warning("tracking.server.notConfigured", { carrier: CARRIER_NAMES[carrier] }),
  failed: (carrier: Carrier, reason: TrackingFailureReason) =>
    warning("tracking.server.failed", {
      carrier: CARRIER_NAMES[carrier],
      reason: REASON_KEY[reason],
    }),
  notYet: (carrier: Carrier) =>
    warning("tracking.server.notYet", { carrier: CARRIER_NAMES[carrier] }),
};

/** 409 for an order whose tracking is not looked up. */
export const noNumberError = () => new AppError(409, "tracking_number_missing");
export const canceledError = () => new AppError(409, "tracking_order_canceled");

export function noDateWarning(carrier: Carrier, r: TrackingResult): Warning | null {
  if (r.delivered || r.expectedDelivery) return null;
  return warning("tracking.server.noDate", { carrier: CARRIER_NAMES[carrier] });
}

/** The update-all summary for people (docs/messages.md shows it in the "Tracking Update Completed" toast): one text per sentence. */
export function summary(s: {
  noNumber: number;
  delivered: number;
  successful: number;
  troubled: number;
  amazon: number;
  other: number;
  notConfigured: Map<Carrier, number>;
  failures: FailureTally;
}): TextPart[] {
  const parts: TextPart[] = [];
  const onTheWay = s.successful - s.delivered - s.troubled;
  let failedTotal = 0;
  for (const byReason of s.failures.values())
    for (const f of byReason.values()) failedTotal += f.count;
  // Only the orders a carrier was asked about are "checked"; the skipped ones are said below.
  const looked = s.successful + failedTotal;
  if (looked > 0) {
    parts.push(
      text("tracking.server.checked", {
        count: looked,
        delivered: s.delivered,
        onTheWay,
        troubled: s.troubled,
      }),
    );
  } else parts.push(text("tracking.server.noneChecked"));
  if (s.amazon > 0) parts.push(text("tracking.server.skippedAmazon", { count: s.amazon }));
  if (s.other > 0) parts.push(text("tracking.server.skippedOther", { count: s.other }));
  for (const [carrier, n] of s.notConfigured) {
    parts.push(
      text("tracking.server.skippedNotConfigured", { count: n, carrier: CARRIER_NAMES[carrier] }),
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
      text("tracking.server.couldNotCheck", { count: n, carrier: CARRIER_NAMES[carrier], reasons }),
    );
  }
  if (failed > 0) parts.push(text("tracking.server.triedAgain"));
  const none = noNumberText(s.noNumber);
  if (none) parts.push(none);
  return parts;
}

/** The update-all summary when no shipped order has a number to check. */
export function nothingToCheck(noNumber: number): TextPart[] {
  const none = noNumberText(noNumber);
  return [text("tracking.server.noShipped"), ...(none ? [none] : [])];
}

/** The Shipped orders update-all cannot look at, and what makes them checkable. */
export function noNumberText(n: number): TextPart | null {
  if (n === 0) return null;
  return text("tracking.server.noNumber", { count: n });
}
