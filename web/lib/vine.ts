/**
 * Vine standing in the browser (pure, unit-tested): the support message for an order Amazon will
 * not get a review for, the words under the gauges, money per currency and the month bars' scale.
 */

import type { VineRate, VineStanding } from "../../src/contract/vine.ts";
import type { RateRule } from "../../src/contract/vine-constants.ts";
import { CANT_REVIEW_LABELS, type CantReviewReason } from "../../src/contract/vine-constants.ts";
import { pluralForm } from "../../src/util/plural.ts";

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

type Evaluation = NonNullable<VineStanding["evaluation"]>;
type Rate = Pick<VineRate, "rule" | "pending" | "percent" | "withPending">;

/** The sentence under the evaluation progress. */
export function evaluationLine(
  ev: Pick<Evaluation, "reviewsNeeded" | "percent" | "goldPercent" | "end">,
): string {
  if (ev.reviewsNeeded === 0)
    return `Gold review rate reached: ${ev.percent ?? 0}% of ${ev.goldPercent}%`;
  return `Review ${ev.reviewsNeeded} more by ${formatDay(ev.end)}`;
}

/**
 * Whether the rate is at or above the minimum, compared as Vine does (the whole percent rounded
 * down); null while nothing counts in the window.
 */
export function rateState(
  rate: Pick<VineRate, "percent"> & { minimum: number },
): "ok" | "low" | null {
  if (rate.percent === null) return null;
  return rate.percent >= rate.minimum ? "ok" : "low";
}

/** What the rate counts, in a few words ("approved of delivered"). */
export function rateWords(rule: RateRule): { reviewed: string; counted: string } {
  return rule === "2025"
    ? { reviewed: "approved", counted: "delivered" }
    : { reviewed: "reviewed", counted: "ordered" };
}

/** "92% once 3 pending reviews are approved"; null when none is pending. */
export function pendingLine(rate: Rate): string | null {
  if (rate.withPending === null || rate.pending === 0) return null;
  const n = rate.pending;
  return `${rate.withPending}% once ${n} pending ${pluralForm(n, { one: "review is", other: "reviews are" })} approved`;
}

/** "3 more reviews reach 60%"; null when the minimum is met or nothing counts yet. */
export function toMinimumLine(rate: {
  reviewsToMinimum: number;
  minimum: number;
  percent: number | null;
  rule: RateRule;
}): string | null {
  if (rate.percent === null || rate.reviewsToMinimum === 0) return null;
  const n = rate.reviewsToMinimum;
  const kind = rate.rule === "2025" ? " approved" : "";
  return `${n} more${kind} ${pluralForm(n, { one: "review reaches", other: "reviews reach" })} ${rate.minimum}%`;
}

/** "48" or "48–49" for a low–high range. */
export const span = ([a, b]: readonly [number, number]): string => (a === b ? `${a}` : `${a}–${b}`);

/** "At your pace so far, by Mar 31, 2027: 48–49 reviews of 53–54 items, 89–91%". */
export function projectionLine(ev: Pick<Evaluation, "projection" | "end" | "rule">): string | null {
  const p = ev.projection;
  if (!p) return null;
  const items = ev.rule === "2025" ? "delivered items" : "items ordered";
  return `At your pace so far, by ${formatDay(ev.end)}: ${span(p.reviews)} reviews of ${span(p.counted)} ${items}, ${span(p.percent)}%`;
}

/** "Oct 1, 2026 09:00 – Mar 31, 2027 18:00" */
export function periodText(
  ev: Pick<Evaluation, "start" | "startTime" | "end" | "endTime">,
): string {
  return `${formatDay(ev.start)} ${ev.startTime} – ${formatDay(ev.end)} ${ev.endTime}`;
}

/**
 * Where a year's USD total stands against that year's 1099-NEC reporting threshold (information,
 * not advice): "$412.50 of the $600 1099-NEC reporting threshold for 2025".
 */
export function form1099Line(year: number, total: number, threshold: number): string {
  const t = formatAmount(threshold, "USD").replace(/\.00$/, "");
  if (total >= threshold) {
    return `${formatAmount(total, "USD")}: at or above the ${t} 1099-NEC reporting threshold for ${year}`;
  }
  return `${formatAmount(total, "USD")} of the ${t} 1099-NEC reporting threshold for ${year} (${formatAmount(threshold - total, "USD")} below it)`;
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
