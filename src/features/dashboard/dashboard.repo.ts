/**
 * Dashboard aggregates, scoped to one user. Each walks one or two index ranges, mostly of indexes
 * that hold every column read, so they are cheap enough to compute on every request (figures in
 * bench/README.md, orders-household.bench.ts).
 */
import { ORDER_STATUSES } from "../../contract/constants.ts";
import type { Db } from "../../db/client.ts";

/** A calendar range in the user's zone: [startIso, endIso) as instants, and as day strings. */
export type ZonedRange = { startIso: string; endIso: string; firstDay: string; lastDay: string };

/** How many orders the user has in each status (absent statuses count 0). */
export type StatusCounts = Record<string, number>;

/**
 * Per currency: sum and number of the values, in cents (in the currency's minor unit ×100 for
 * yen), of the user's orders that are not Canceled. Never added across currencies.
 */
export type ValueTotals = { currency: string; cents: number; valued: number }[];

/**
 * Whether a date column's value falls in the range: a bare "YYYY-MM-DD" is a calendar day and is
 * compared with the range's days, an ISO instant with the range's instants.
 */
const inRange = (col: string) =>
  `CASE WHEN length(${col}) = 10 THEN ${col} BETWEEN +$first AND +$last
        ELSE ${col} >= +$start AND ${col} < +$end END`;

/**
 * Orders (not Canceled) whose "ordered" day falls in the range: those with a date_ordered, plus
 * those without one by `fallback`. This Month counts by created_at (each order counted somewhere);
 * Ordered today by mail_date (always an instant: the Date of the mail that created the order), so
 * an order typed or imported without an order date is never "ordered today": the day it was added
 * is not the day it was ordered.
 *
 * The two sets are disjoint; the date_ordered set and the created_at set are each one range of the
 * covering index (user_id, date_ordered, created_at, status) (migration 0004): no table row is
 * read (the mail_date set reads the rows of orders without a date_ordered). [lo, hi) only narrows each to the index range that can hold a match; the CASE decides.
 * (`+$param`: see orders.repo.ts; a bare parameter made SQLite prepare these again on every run.)
 */
const countInRange = (fallback: "created_at" | "mail_date") => `
  SELECT (SELECT COUNT(*) FROM orders
           WHERE user_id = +$user AND date_ordered >= +$lo AND date_ordered < +$hi
             AND status <> 'Canceled' AND ${inRange("date_ordered")})
       + (SELECT COUNT(*) FROM orders
           WHERE user_id = +$user AND date_ordered IS NULL AND ${fallback} >= +$lo AND ${fallback} < +$hi
             AND status <> 'Canceled' AND ${inRange(fallback)}) AS n`;

type RangeParams = {
  user: number;
  lo: string;
  hi: string;
  first: string;
  last: string;
  start: string;
  end: string;
};

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
 * Overdue and due-this-week reviews (src/contract/dashboard.ts `Reviews`) of the orders in one
 * status, by the date in `col`: one range of that status's (user_id, status, `col` IS NULL, `col`)
 * index, which holds every column read (covering).
 */
const reviewsDueIn = (status: string, col: string, overdue: string, due: string) => `
  SELECT COALESCE(SUM(${atMost(col, overdue)}), 0) AS overdue,
         COALESCE(SUM(NOT ${atMost(col, overdue)} AND ${atMost(col, due)}), 0) AS due
    FROM orders WHERE user_id = +$user AND status = '${status}'`;

/** Per status and currency: how many orders, and the sum and number of their values in cents. */
type FigureRow = { status: string; currency: string; n: number; cents: number; valued: number };

export function createDashboardRepo(db: Db) {
  const sqlite = db.$client;
  // One pass over the covering index (user_id, status, currency, value_cents): every count and value.
  const figuresStmt = sqlite.prepare<FigureRow, [{ user: number }]>(
    `SELECT status, currency, COUNT(*) AS n, COALESCE(SUM(value_cents), 0) AS cents,
            COUNT(value_cents) AS valued
       FROM orders WHERE user_id = +$user GROUP BY status, currency`,
  );
  const orderedIn = sqlite.prepare<{ n: number }, [RangeParams]>(countInRange("created_at"));
  const placedIn = sqlite.prepare<{ n: number }, [RangeParams]>(countInRange("mail_date"));
  // Shipped orders whose expected day is before today (a day string): the (user, status, …,
  // expected_delivery_date) index holds the status range.
  const lateStmt = sqlite.prepare<{ n: number }, [{ user: number; today: string }]>(
    `SELECT COUNT(*) AS n FROM orders
      WHERE user_id = +$user AND status = 'Shipped' AND expected_delivery_date IS NOT NULL
        AND expected_delivery_date < +$today`,
  );
  type Due = { overdue: number; due: number };
  const receivedDue = sqlite.prepare<Due, [Record<string, string | number>]>(
    reviewsDueIn("Received", "date_delivered", "ro", "rd"),
  );
  const rejectedDue = sqlite.prepare<Due, [Record<string, string | number>]>(
    reviewsDueIn("Review Rejected", "date_review_rejected", "jo", "jd"),
  );
  const rangeParams = (userId: number, r: ZonedRange): RangeParams => ({
    user: userId,
    // Every matching value, day or instant, sorts as text within [lo, hi).
    lo: r.firstDay < r.startIso ? r.firstDay : r.startIso,
    hi: r.endIso,
    first: r.firstDay,
    last: r.lastDay,
    start: r.startIso,
    end: r.endIso,
  });

  return {
    /**
     * Orders per status (absent statuses count 0), and the values of the orders that are not
     * Canceled per currency, in cents, most valued first.
     */
    figures(userId: number): { counts: StatusCounts; values: ValueTotals } {
      const counts: StatusCounts = {};
      for (const s of ORDER_STATUSES) counts[s] = 0;
      const byCurrency = new Map<string, ValueTotals[number]>();
      for (const f of figuresStmt.all({ user: userId })) {
        if (f.status in counts) counts[f.status] = (counts[f.status] ?? 0) + f.n;
        if (f.status === "Canceled" || f.valued === 0) continue;
        const t = byCurrency.get(f.currency) ?? { currency: f.currency, cents: 0, valued: 0 };
        t.cents += f.cents;
        t.valued += f.valued;
        byCurrency.set(f.currency, t);
      }
      const values = [...byCurrency.values()].sort(
        (a, b) => b.valued - a.valued || (a.currency < b.currency ? -1 : 1),
      );
      return { counts, values };
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
    reviewsDue(userId: number, l: ReviewLimits): Due {
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
      const r = receivedDue.get(p);
      const j = rejectedDue.get(p);
      return { overdue: (r?.overdue ?? 0) + (j?.overdue ?? 0), due: (r?.due ?? 0) + (j?.due ?? 0) };
    },
  };
}
export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
