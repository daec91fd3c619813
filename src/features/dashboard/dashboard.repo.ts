/** Dashboard aggregates, scoped to one user; each is one indexed SQL statement. */
import { ORDER_STATUSES } from "../../contract/index.ts";
import type { Db } from "../../db/client.ts";

/** A calendar range in the user's zone: [startIso, endIso) as instants, and as day strings. */
export type ZonedRange = { startIso: string; endIso: string; firstDay: string; lastDay: string };

/** How many orders the user has in each status (absent statuses count 0). */
export type StatusCounts = Record<string, number>;

/** Sum and number of the values, in cents, of the user's orders that are not Canceled. */
export type ValueTotals = { cents: number; valued: number };

/**
 * When an order was ordered: date_ordered, else created_at. A bare "YYYY-MM-DD" is a calendar day
 * and is compared with the range's days; an ISO instant with the range's instants. The first
 * condition only narrows the rows to the two index ranges (user_id, date_ordered) and
 * (user_id, created_at) that can hold a match; the CASE decides.
 */
const ORDERED = "COALESCE(date_ordered, created_at)";
const ORDERED_IN_RANGE = `
  SELECT COUNT(*) AS n FROM orders
   WHERE user_id = $user AND status <> 'Canceled'
     AND ((date_ordered >= $lo AND date_ordered < $hi)
          OR (date_ordered IS NULL AND created_at >= $lo AND created_at < $hi))
     AND CASE WHEN length(${ORDERED}) = 10 THEN ${ORDERED} BETWEEN $first AND $last
              ELSE ${ORDERED} >= $start AND ${ORDERED} < $end END`;

export function createDashboardRepo(db: Db) {
  // One index range count per status (faster than a GROUP BY over every order).
  const byStatus = db.$client.query<StatusCounts, { user: number }>(
    `SELECT ${ORDER_STATUSES.map(
      (s, i) => `(SELECT COUNT(*) FROM orders WHERE user_id = $user AND status = '${s}') AS s${i}`,
    ).join(", ")}`,
  );
  const values = db.$client.query<ValueTotals, { user: number }>(
    `SELECT COALESCE(SUM(value_cents), 0) AS cents, COUNT(value_cents) AS valued
       FROM orders WHERE user_id = $user AND status <> 'Canceled'`,
  );
  const orderedIn = db.$client.query<
    { n: number },
    {
      user: number;
      lo: string;
      hi: string;
      first: string;
      last: string;
      start: string;
      end: string;
    }
  >(ORDERED_IN_RANGE);

  return {
    /** Orders per status. */
    statusCounts(userId: number): StatusCounts {
      const row = byStatus.get({ user: userId }) ?? {};
      return Object.fromEntries(ORDER_STATUSES.map((s, i) => [s, row[`s${i}`] ?? 0]));
    },

    /** Values of the orders that are not Canceled, in cents. */
    valueTotals: (userId: number): ValueTotals =>
      values.get({ user: userId }) ?? { cents: 0, valued: 0 },

    /** Orders (not Canceled) ordered, else created, within the range. */
    orderedWithin(userId: number, r: ZonedRange): number {
      // Every matching value, day or instant, sorts as text within [lo, hi).
      const lo = r.firstDay < r.startIso ? r.firstDay : r.startIso;
      return (
        orderedIn.get({
          user: userId,
          lo,
          hi: r.endIso,
          first: r.firstDay,
          last: r.lastDay,
          start: r.startIso,
          end: r.endIso,
        })?.n ?? 0
      );
    },
  };
}
export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
