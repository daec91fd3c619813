/**
 * Where an order's review stands (docs/screens.md): Edit Order's status line and the published
 * review's page (the date a card shows under the review filters is in order-days.ts). Pure.
 */
import type { Order } from "../../src/contract/orders.ts";
import { translate } from "../i18n/index.ts";
import {
  type AgeThresholdKind,
  ageText,
  type DateInput,
  daysSince,
  toDate,
  type UrgencyLevel,
  urgencyLevel,
} from "./format.ts";
import { displayDay } from "./order-days.ts";

/**
 * The retailer's page of a published review (docs/screens.md 'View on'), on the order's own
 * Amazon site (web/lib/amazon-links.ts `orderSite`).
 */
export function reviewUrl(
  reference: string | null | undefined,
  site = "https://www.amazon.com",
): string | null {
  const r = (reference ?? "").trim();
  return r ? `${site}/review/${encodeURIComponent(r)}` : null;
}

export type ReviewStatusLine = {
  /** "Submitted", "Approved", "Rejected" or "Not Submitted" (in the reader's language). */
  label: string;
  /** "Nov 21, 2026 · 3 days ago", "Received Nov 18, 2026 · 3 days ago", "Status: Shipped" … */
  detail: string | null;
  urgency: UrgencyLevel;
};

function dated(
  value: DateInput,
  now: Date,
  timeZone: string | undefined,
  kind: AgeThresholdKind | null,
  received = false,
): { detail: string | null; urgency: UrgencyLevel } {
  if (!toDate(value)) return { detail: null, urgency: "normal" };
  const shown = displayDay(value, timeZone);
  const day = received ? translate("review.status.receivedOn", { day: shown }) : shown;
  if (!kind) return { detail: day, urgency: "normal" };
  return {
    detail: `${day} · ${ageText(value, now)}`,
    urgency: urgencyLevel(daysSince(value, now), kind),
  };
}

export function reviewStatusLine(
  order: Pick<
    Order,
    "status" | "datereviewsubmitted" | "datereviewapproved" | "datereviewrejected" | "datedelivered"
  >,
  now: Date = new Date(),
  timeZone?: string,
): ReviewStatusLine {
  switch (order.status) {
    case "Review Submitted":
      return {
        label: translate("review.status.submitted"),
        ...dated(order.datereviewsubmitted, now, timeZone, "reviewSubmitted"),
      };
    case "Review Approved":
      return {
        label: translate("review.status.approved"),
        ...dated(order.datereviewapproved, now, timeZone, null),
      };
    case "Review Rejected":
      return {
        label: translate("review.status.rejected"),
        ...dated(order.datereviewrejected, now, timeZone, "reviewRejected"),
      };
    case "Received":
      return {
        label: translate("review.status.notSubmitted"),
        ...dated(order.datedelivered, now, timeZone, "received", true),
      };
    default:
      return {
        label: translate("review.status.notSubmitted"),
        detail: translate("review.status.orderStatus", { status: order.status }),
        urgency: "normal",
      };
  }
}
