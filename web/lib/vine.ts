/**
 * Vine standing in the browser (pure, unit-tested): the support message for an order Amazon will
 * not get a review for, the words under the gauges, money per currency and the month bars' scale.
 */

import type { VineRate, VineStanding } from "../../src/contract/vine.ts";
import type { CantReviewReason, RateRule } from "../../src/contract/vine-constants.ts";
import { intlLocale, translate } from "../i18n/index.ts";

/** "Dec 31, 2026" for a "YYYY-MM-DD" day in the reader's language, without any time-zone shift. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(intlLocale(), {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** "89.7" in English, "89,7" in German: a percent's number (the messages add the sign). */
export function formatPercentNumber(value: number): string {
  return new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: 1 }).format(value);
}

/** Why Amazon will not get a review, in the reader's language (the support message, the form). */
export function cantReviewLabel(reason: CantReviewReason): string {
  return translate(`vine.cantReview.${reason}`);
}

/** A ready-to-copy message to Vine support naming the order and the reason, in the reader's language. */
export function supportMessage(o: {
  amazonordernumber: string | null;
  asin: string | null;
  productname: string;
  reason: CantReviewReason;
  note: string;
}): string {
  const notKnown = translate("vine.support.notKnown");
  const details = o.note.trim();
  return translate("vine.support.message", {
    orderNumber: o.amazonordernumber?.trim() || notKnown,
    asin: o.asin?.trim() || notKnown,
    product: o.productname.trim(),
    reason: cantReviewLabel(o.reason),
    hasDetails: details ? "yes" : "no",
    details,
  });
}

/**
 * "$1,234.50", "€30.00" in English, "1.234,50 $" in German; an unknown currency code falls back
 * to "30.00 XYZ". `whole` leaves out the cents ("$600").
 */
export function formatAmount(amount: number, currency: string, whole = false): string {
  try {
    return new Intl.NumberFormat(intlLocale(), {
      style: "currency",
      currency,
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    }).format(amount);
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
  if (ev.reviewsNeeded === 0) {
    return translate("vine.evaluation.goldReached", {
      percent: formatPercentNumber(ev.percent ?? 0),
      goldPercent: formatPercentNumber(ev.goldPercent),
    });
  }
  return translate("vine.evaluation.reviewMore", {
    count: ev.reviewsNeeded,
    date: formatDay(ev.end),
  });
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

/** "92% once 3 pending reviews are approved"; null when none is pending. */
export function pendingLine(rate: Rate): string | null {
  if (rate.withPending === null || rate.pending === 0) return null;
  return translate("vine.rate.pending", {
    count: rate.pending,
    percent: formatPercentNumber(rate.withPending),
  });
}

/** "3 more reviews reach 60%"; null when the minimum is met or nothing counts yet. */
export function toMinimumLine(rate: {
  reviewsToMinimum: number;
  minimum: number;
  percent: number | null;
  rule: RateRule;
}): string | null {
  if (rate.percent === null || rate.reviewsToMinimum === 0) return null;
  return translate("vine.rate.toMinimum", {
    rule: rate.rule,
    count: rate.reviewsToMinimum,
    minimum: formatPercentNumber(rate.minimum),
  });
}

/** "48" or "48–49" for a low–high range. */
export const span = ([a, b]: readonly [number, number]): string =>
  a === b ? formatPercentNumber(a) : `${formatPercentNumber(a)}–${formatPercentNumber(b)}`;

/** "At your pace so far, by Mar 31, 2027: 48–49 reviews of 53–54 items, 89–91%". */
export function projectionLine(ev: Pick<Evaluation, "projection" | "end" | "rule">): string | null {
  const p = ev.projection;
  if (!p) return null;
  return translate("vine.evaluation.projection", {
    rule: ev.rule,
    date: formatDay(ev.end),
    reviews: span(p.reviews),
    counted: span(p.counted),
    percent: span(p.percent),
  });
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
  const values = {
    total: formatAmount(total, "USD"),
    threshold: formatAmount(threshold, "USD", true),
    year: String(year),
  };
  if (total >= threshold) return translate("vine.etv.form1099Above", values);
  return translate("vine.etv.form1099Below", {
    ...values,
    below: formatAmount(threshold - total, "USD"),
  });
}

/** Bar heights (0..1) for the month totals; all zero when nothing was ordered. */
export function barHeights(months: readonly number[]): number[] {
  const max = Math.max(0, ...months);
  return months.map((m) => (max > 0 ? m / max : 0));
}

/** The twelve months' short names in the reader's language ("Jan" … "Dec"). */
export function monthNames(form: "short" | "narrow" = "short"): string[] {
  const fmt = new Intl.DateTimeFormat(intlLocale(), { month: form, timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, i) => fmt.format(new Date(Date.UTC(2026, i, 1))));
}
