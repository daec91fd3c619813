/**
 * An order's days in the user's zone (docs/behaviour.md#states-and-transitions): the calendar day
 * of a date or instant, how it is shown, and the review day a card shows. Pure.
 */
import type { OrderStatus } from "../../src/contract/constants.ts";
import type { Order } from "../../src/contract/orders.ts";
import { dayDiff, isoDayInZone } from "../../src/util/calendar-day.ts";
import { type MessageId, translate } from "../i18n/index.ts";
import { type DateInput, formatDateOnly, toDate } from "./format.ts";
import { detectBrowserTimeZone, safeTimeZone } from "./timezone.ts";

const DATE_ONLY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The calendar day ("YYYY-MM-DD") of a value in the zone (the browser's when none or invalid). A
 * bare "YYYY-MM-DD" is already a day and is kept as it is (it names a day, not an instant). Null
 * when empty or invalid.
 */
export function dayKey(value: DateInput, timeZone?: string): string | null {
  if (typeof value === "string" && DATE_ONLY_RE.test(value.trim())) return value.trim();
  const date = toDate(value);
  if (!date) return null;
  return isoDayInZone(date, safeTimeZone(timeZone) ?? detectBrowserTimeZone());
}

/** Whole days from day a to day b (both "YYYY-MM-DD"). */
export { dayDiff };

/** "Nov 21, 2026" for a day or an instant (in the zone); "Never" when empty. */
export function displayDay(value: DateInput, timeZone?: string): string {
  if (typeof value === "string" && DATE_ONLY_RE.test(value.trim())) {
    return formatDateOnly(`${value.trim()}T12:00:00Z`, "UTC");
  }
  return formatDateOnly(value, timeZone);
}

/** The review date shown on a card under the review filters. */
export function reviewDateText(order: Order, timeZone?: string): string | null {
  const pick: Partial<Record<OrderStatus, [MessageId, string | null]>> = {
    "Review Submitted": ["card.reviewSubmittedOn", order.datereviewsubmitted],
    "Review Approved": ["card.reviewApprovedOn", order.datereviewapproved],
    "Review Rejected": ["card.reviewRejectedOn", order.datereviewrejected],
  };
  const entry = pick[order.status];
  if (!entry || !toDate(entry[1])) return null;
  return translate(entry[0], { date: displayDay(entry[1], timeZone) });
}
