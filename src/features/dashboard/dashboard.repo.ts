/**
 * Dashboard aggregates, scoped to one user; each is one indexed SQL statement. Their results are
 * kept per user and orders generation (`cached`, see orders-cache.ts): any write of the user's
 * orders makes them be computed again.
 */
import { ORDER_STATUSES } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";
import { ordersCacheFor } from "../orders/orders-cache.ts";

/** A calendar range in the user's zone: [startIso, endIso) as instants, and as day strings. */
export type ZonedRange = { startIso: string; endIso: string; firstDay: string; lastDay: string };

/** How many orders the user has in each status (absent statuses count 0). */
export type StatusCounts = Record<string, number>;

/**
 * Per currency: sum and number of the values, in cents (in the currency's minor unit ×100 for
 * yen), of the user's orders that are not Canceled. Never added across currencies.
 */
export type ValueTotals = { currency: string; cents: number; valued: number }[];

/** Per status: how many orders, and the sum and number of their values in cents. */
export type StatusFigures = { status: string; n: number; cents: number; valued: number }[];

/**
 * Whether an order's "ordered" value (date_ordered, else created_at) falls in the range: a bare
 * "YYYY-MM-DD" is a calendar day and is compared with the range's days, an ISO instant with the
 * range's instants.
 */
const inRange = (col: string) =>
  `CASE WHEN length(${col}) = 10 THEN ${col} BETWEEN +$first AND +$last
        ELSE ${col} >= +$start AND ${col} < +$end END`;

/**
 * (`+$param`: see orders.repo.ts; a bare parameter made SQLite prepare these again on every run.)
 *
 * Orders (not Canceled) ordered, else created, in the range: those with a date_ordered, plus those
 * without one by created_at. The two sets are disjoint, and each is one range of the covering index
 * (user_id, date_ordered, created_at, status) (migration 0004): no table row is read. [lo, hi)
 * only narrows each to the index range that can hold a match; the CASE decides.
 */
const ORDERED_IN_RANGE = `
  SELECT (SELECT COUNT(*) FROM orders
           WHERE user_id = +$user AND date_ordered >= +$lo AND date_ordered < +$hi
             AND status <> 'Canceled' AND ${inRange("date_ordered")})
       + (SELECT COUNT(*) FROM orders
           WHERE user_id = +$user AND date_ordered IS NULL AND created_at >= +$lo AND created_at < +$hi
             AND status <> 'Canceled' AND ${inRange("created_at")}) AS n`;

/**
 * Orders (not Canceled) placed in the range: those whose date_ordered is in it, plus those without
 * one whose mail (mail_date, always an instant) arrived in it. An order typed or imported without
 * an order date has no mail_date and is never counted: the day it was added is not the day it was
 * ordered.
 */
const PLACED_IN_RANGE = `
  SELECT (SELECT COUNT(*) FROM orders
           WHERE user_id = +$user AND date_ordered >= +$lo AND date_ordered < +$hi
             AND status <> 'Canceled' AND ${inRange("date_ordered")})
       + (SELECT COUNT(*) FROM orders
           WHERE user_id = +$user AND date_ordered IS NULL AND mail_date >= +$start
             AND mail_date < +$end AND status <> 'Canceled') AS n`;

/**
 * A day limit for the review ages: an age of at least N days means the day of the date is at most
 * today − N, i.e. a bare day `<= day`, an instant `< before` (the start of the next day in the
 * user's zone). Computed by the service (dashboard.service.ts `reviewsDue`).
 */
export type DayLimit = { day: string; before: string };
/** Per status: the limits for "overdue" and for "due this week". */
export type ReviewLimits = {
  receivedOverdue: DayLimit;
  receivedDue: DayLimit;
  rejectedOverdue: DayLimit;
  rejectedDue: DayLimit;
};

/** The date in `col` (not null) is on or before a day limit (bare day or instant, as inRange). */
const atMost = (col: string, p: string) =>
  `(${col} IS NOT NULL AND CASE WHEN length(${col}) = 10 THEN ${col} <= +$${p}Day
        ELSE ${col} < +$${p}Before END)`;

/**
 * Overdue and due-this-week reviews (src/contract/dashboard.ts `Reviews`) in one pass over the
 * (user_id, status, …) index ranges of Received and Review Rejected.
 */
const REVIEWS_DUE = `
  SELECT COALESCE(SUM(CASE
           WHEN status = 'Received' THEN ${atMost("date_delivered", "ro")}
           ELSE ${atMost("date_review_rejected", "jo")} END), 0) AS overdue,
         COALESCE(SUM(CASE
           WHEN status = 'Received' THEN NOT ${atMost("date_delivered", "ro")}
             AND ${atMost("date_delivered", "rd")}
           ELSE NOT ${atMost("date_review_rejected", "jo")}
             AND ${atMost("date_review_rejected", "jd")} END), 0) AS due
    FROM orders WHERE user_id = +$user AND status IN ('Received', 'Review Rejected')`;

export function createDashboardRepo(db: Db) {
  const cache = ordersCacheFor(db);
  // One pass over the covering index (user_id, status, value_cents) gives every count and value.
  const byStatus = db.$client.prepare<StatusFigures[number], [{ user: number }]>(
    `SELECT status, COUNT(*) AS n, COALESCE(SUM(value_cents), 0) AS cents,
            COUNT(value_cents) AS valued
       FROM orders WHERE user_id = +$user GROUP BY status`,
  );
  const byCurrency = db.$client.prepare<ValueTotals[number], [{ user: number }]>(
    `SELECT currency, COALESCE(SUM(value_cents), 0) AS cents, COUNT(value_cents) AS valued
       FROM orders WHERE user_id = +$user AND status <> 'Canceled' AND value_cents IS NOT NULL
      GROUP BY currency ORDER BY valued DESC, currency`,
  );
  const orderedIn = db.$client.prepare<
    { n: number },
    [
      {
        user: number;
        lo: string;
        hi: string;
        first: string;
        last: string;
        start: string;
        end: string;
      },
    ]
  >(ORDERED_IN_RANGE);

  const placedIn = db.$client.prepare<
    { n: number },
    [
      {
        user: number;
        lo: string;
        hi: string;
        first: string;
        last: string;
        start: string;
        end: string;
      },
    ]
  >(PLACED_IN_RANGE);
  // Shipped orders whose expected day is before today (a day string): the (user, status, …,
  // expected_delivery_date) index holds the status range.
  const lateStmt = db.$client.prepare<{ n: number }, [{ user: number; today: string }]>(
    `SELECT COUNT(*) AS n FROM orders
      WHERE user_id = +$user AND status = 'Shipped' AND expected_delivery_date IS NOT NULL
        AND expected_delivery_date < +$today`,
  );
  const reviewsDue = db.$client.prepare<
    { overdue: number; due: number },
    [Record<string, string | number>]
  >(REVIEWS_DUE);
  const rangeParams = (userId: number, r: ZonedRange) => ({
    user: userId,
    // Every matching value, day or instant, sorts as text within [lo, hi).
    lo: r.firstDay < r.startIso ? r.firstDay : r.startIso,
    hi: r.endIso,
    first: r.firstDay,
    last: r.lastDay,
    start: r.startIso,
    end: r.endIso,
  });

  /** Per-status figures of the user, read once per orders generation. */
  const statusFigures = (userId: number): StatusFigures =>
    cache.get(userId, "status-figures", () => byStatus.all({ user: userId }));

  return {
    /** Orders per status. */
    statusCounts(userId: number): StatusCounts {
      const counts: StatusCounts = {};
      for (const s of ORDER_STATUSES) counts[s] = 0;
      for (const f of statusFigures(userId)) if (f.status in counts) counts[f.status] = f.n;
      return counts;
    },

    /** Values of the orders that are not Canceled, in cents. */
    valueTotals(userId: number): ValueTotals {
      return cache.get(userId, "value-by-currency", () => byCurrency.all({ user: userId }));
    },

    /** Orders (not Canceled) ordered, else created, within the range (This Month). */
    orderedWithin(userId: number, r: ZonedRange): number {
      return orderedIn.get(rangeParams(userId, r))?.n ?? 0;
    },

    /** Orders (not Canceled) placed within the range: order date, else mail date (Ordered today). */
    placedWithin(userId: number, r: ZonedRange): number {
      return placedIn.get(rangeParams(userId, r))?.n ?? 0;
    },

    /** Shipped orders whose expected day ("YYYY-MM-DD") is before `today`. */
    shippedLate(userId: number, today: string): number {
      return lateStmt.get({ user: userId, today })?.n ?? 0;
    },

    /** Overdue reviews, and due this week (not overdue), by the service's day limits. */
    reviewsDue(userId: number, l: ReviewLimits): { overdue: number; due: number } {
      const p: Record<string, string | number> = { user: userId };
      for (const [key, limit] of [
        ["ro", l.receivedOverdue],
        ["rd", l.receivedDue],
        ["jo", l.rejectedOverdue],
        ["jd", l.rejectedDue],
      ] as const) {
        p[`${key}Day`] = limit.day;
        p[`${key}Before`] = limit.before;
      }
      return reviewsDue.get(p) ?? { overdue: 0, due: 0 };
    },

    /**
     * A figure of the user's computed from their orders, kept until their orders change. `key`
     * must name everything the figure depends on besides the orders (e.g. the zoned range).
     */
    cached: <T>(userId: number, key: string, compute: () => T): T =>
      cache.get(userId, key, compute),
  };
}
export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
