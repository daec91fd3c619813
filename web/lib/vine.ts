/**
 * Vine standing in the browser (pure, unit-tested): the support message for an order Amazon will
 * not get a review for, the words under the gauges, money per currency and the month bars' scale.
 */

import type { VineStanding } from "../../src/contract/vine.ts";
import { CANT_REVIEW_LABELS, type CantReviewReason } from "../../src/contract/vine-constants.ts";

/** "Dec 31, 2026" for a "YYYY-MM-DD" day, without any time-zone shift. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** A ready-to-copy message to Vine support naming the order and the reason. */
export function supportMessage(o: {
  amazonordernumber: string | null;
  asin: string | null;
  productname: string;
  reason: CantReviewReason;
  note: string;
}): string {
  const lines = [
    "Hello Vine Support,",
    "",
    "I cannot review an item I ordered through Amazon Vine. Please remove it from my review list.",
    "",
    `Order number: ${o.amazonordernumber?.trim() || "(not known)"}`,
    `ASIN: ${o.asin?.trim() || "(not known)"}`,
    `Product: ${o.productname.trim()}`,
    `Reason: ${CANT_REVIEW_LABELS[o.reason]}`,
  ];
  if (o.note.trim()) lines.push(`Details: ${o.note.trim()}`);
  lines.push("", "Thank you.");
  return lines.join("\n");
}

/** "$1,234.50", "€30.00"; an unknown currency code falls back to "30.00 XYZ". */
export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** The sentence under the evaluation progress. */
export function evaluationLine(ev: NonNullable<VineStanding["evaluation"]>): string {
  if (ev.reviewsNeeded === 0)
    return `Gold review rate reached: ${ev.percent ?? 0}% of ${ev.goldPercent}%`;
  return `Review ${ev.reviewsNeeded} more by ${formatDay(ev.end)}`;
}

/** Whether the rate is at or above the minimum; null while nothing was ordered in the window. */
export function rateState(rate: VineStanding["reviewRate"]): "ok" | "low" | null {
  if (rate.percent === null) return null;
  return rate.percent >= rate.minimum ? "ok" : "low";
}

/** Bar heights (0..1) for the month totals; all zero when nothing was ordered. */
export function barHeights(months: readonly number[]): number[] {
  const max = Math.max(0, ...months);
  return months.map((m) => (max > 0 ? m / max : 0));
}

export const MONTH_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];
