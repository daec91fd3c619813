/**
 * Carrier tracking queries: each user's preferences and daily-check bookkeeping (users columns of
 * migration 0006), the Shipped orders a check looks at, and the parcels' trouble the checks saw
 * (tracking_problems). Reads only on orders: every order write goes through the orders repo (its
 * cache and events), never through here.
 */
import type { Db } from "../../db/client.ts";
import type { OrderRow } from "../../db/schema.ts";

/** A parcel's trouble as the checks saw it (table tracking_problems). */
export type ProblemState = {
  orderId: number;
  trackingNumber: string;
  notFoundChecks: number;
  notified: string | null;
};

/** What the scheduler needs to know about one user. */
export type ScheduleRow = {
  userId: number;
  timezone: string | null;
  /** "HH:MM"; null: the default time. */
  trackingUpdateTime: string | null;
  /** ISO; null until the first daily check ran. */
  trackingLastRunAt: string | null;
  createdAt: string;
};

/** The fields of an order a look-up needs. */
export type TrackedOrder = Pick<
  OrderRow,
  "id" | "userId" | "productName" | "trackingNumber" | "carrier" | "status"
>;

const SCHEDULE_COLUMNS = `id AS userId, timezone, tracking_update_time AS trackingUpdateTime,
  tracking_last_run_at AS trackingLastRunAt, created_at AS createdAt`;

export function createTrackingRepo(db: Db) {
  const sqlite = db.$client;
  const one = sqlite.prepare<ScheduleRow, [number]>(
    `SELECT ${SCHEDULE_COLUMNS} FROM users WHERE id = ?1`,
  );
  const all = sqlite.prepare<ScheduleRow, []>(`SELECT ${SCHEDULE_COLUMNS} FROM users ORDER BY id`);
  const savePrefs = sqlite.prepare<unknown, [string, string, string, number]>(
    "UPDATE users SET timezone = ?1, tracking_update_time = ?2, updated_at = ?3 WHERE id = ?4",
  );
  const lastRun = sqlite.prepare<unknown, [string, number]>(
    "UPDATE users SET tracking_last_run_at = ?1 WHERE id = ?2",
  );
  // Walks orders_user_status_idx: a user without Shipped orders costs one index probe.
  const shipped = sqlite.prepare<TrackedOrder, [number]>(
    `SELECT id, user_id AS userId, product_name AS productName, tracking_number AS trackingNumber,
       carrier, status
     FROM orders
     WHERE user_id = ?1 AND status = 'Shipped' AND tracking_number IS NOT NULL
       AND trim(tracking_number) <> ''
     ORDER BY id`,
  );
  const shippedNoNumber = sqlite.prepare<{ n: number }, [number]>(
    `SELECT count(*) AS n FROM orders
     WHERE user_id = ?1 AND status = 'Shipped' AND (tracking_number IS NULL OR trim(tracking_number) = '')`,
  );
  const problems = sqlite.prepare<ProblemState, [number]>(
    `SELECT p.order_id AS orderId, p.tracking_number AS trackingNumber,
       p.not_found_checks AS notFoundChecks, p.notified
     FROM tracking_problems p JOIN orders o ON o.id = p.order_id
     WHERE o.user_id = ?1`,
  );
  const saveProblem = sqlite.prepare<unknown, [number, string, number, string | null, string]>(
    `INSERT INTO tracking_problems (order_id, tracking_number, not_found_checks, notified, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (order_id) DO UPDATE SET tracking_number = ?2, not_found_checks = ?3,
       notified = ?4, updated_at = ?5`,
  );
  const clearProblem = sqlite.prepare<unknown, [number]>(
    "DELETE FROM tracking_problems WHERE order_id = ?1",
  );
  return {
    /** The user's parcels with trouble seen by the checks, by order id. */
    problemStates: (userId: number): Map<number, ProblemState> =>
      new Map(problems.all(userId).map((p) => [p.orderId, p])),
    saveProblemState: (p: ProblemState, nowIso: string): void => {
      saveProblem.run(p.orderId, p.trackingNumber, p.notFoundChecks, p.notified, nowIso);
    },
    clearProblemState: (orderId: number): void => {
      clearProblem.run(orderId);
    },
    scheduleRow: (userId: number): ScheduleRow | undefined => one.get(userId) ?? undefined,
    scheduleRows: (): ScheduleRow[] => all.all(),
    /** Saves the zone and the daily time; false when the user does not exist. */
    savePreferences: (userId: number, timezone: string, time: string, nowIso: string): boolean =>
      savePrefs.run(timezone, time, nowIso, userId).changes > 0,
    setLastRunAt: (userId: number, iso: string): void => {
      lastRun.run(iso, userId);
    },
    /** The user's Shipped orders that have a tracking number, oldest first. */
    shippedWithTracking: (userId: number): TrackedOrder[] => shipped.all(userId),
    /** How many of the user's Shipped orders have no tracking number (nothing to look up). */
    shippedWithoutTracking: (userId: number): number => shippedNoNumber.get(userId)?.n ?? 0,
  };
}
export type TrackingRepo = ReturnType<typeof createTrackingRepo>;
