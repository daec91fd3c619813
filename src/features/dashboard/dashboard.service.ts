/**
 * The dashboard (spec §2, §3): status counts with today's orders, the newest orders, and the
 * stats whose definitions are in src/contract/dashboard.ts. "Today" and "this month" are the
 * user's, in their saved time zone (UTC when none is saved).
 */
import {
  DASHBOARD_RECENT_COUNT,
  type DashboardCounts,
  type DashboardRecent,
  type DashboardStats,
  type OrderStatus,
} from "../../contract/index.ts";
import {
  addDays,
  addMonths,
  type DayParts,
  dayInZone,
  formatDay,
  startOfDayInZone,
} from "../orders/expected-delivery.ts";
import type { OrdersRepo } from "../orders/orders.repo.ts";
import { toOrder } from "../orders/orders.service.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import type { DashboardRepo, ZonedRange } from "./dashboard.repo.ts";

/** Orders that reached Received or later, and those whose review was submitted (reviewRate). */
const REVIEWED: readonly OrderStatus[] = ["Review Submitted", "Review Approved", "Review Rejected"];
const REACHED_RECEIVED: readonly OrderStatus[] = ["Received", ...REVIEWED];

/** Days [from, to) in the zone, as instants and as inclusive day strings. */
function range(from: DayParts, to: DayParts, zone: string): ZonedRange {
  return {
    startIso: startOfDayInZone(from, zone).toISOString(),
    endIso: startOfDayInZone(to, zone).toISOString(),
    firstDay: formatDay(from),
    lastDay: formatDay(addDays(to, -1)),
  };
}

export function createDashboardService(deps: {
  dashboard: DashboardRepo;
  orders: OrdersRepo;
  users: UsersRepo;
  now?: () => Date;
}) {
  const clock = deps.now ?? (() => new Date());
  const zoneOf = (userId: number): string => deps.users.findById(userId)?.timezone || "UTC";

  return {
    counts(userId: number): DashboardCounts {
      const zone = zoneOf(userId);
      const today = dayInZone(clock(), zone);
      const n = deps.dashboard.statusCounts(userId);
      const count = (status: OrderStatus) => n[status] ?? 0;
      return {
        Ordered: count("Ordered"),
        OrderedToday: deps.dashboard.orderedWithin(userId, range(today, addDays(today, 1), zone)),
        Shipped: count("Shipped"),
        Received: count("Received"),
        "Review Submitted": count("Review Submitted"),
        "Review Rejected": count("Review Rejected"),
        "Review Approved": count("Review Approved"),
      };
    },

    recent(userId: number): DashboardRecent {
      return deps.orders.recent(userId, DASHBOARD_RECENT_COUNT).map(toOrder);
    },

    stats(userId: number): DashboardStats {
      const zone = zoneOf(userId);
      const today = dayInZone(clock(), zone);
      const first = { ...today, day: 1 };
      const n = deps.dashboard.statusCounts(userId);
      const sum = (statuses: readonly OrderStatus[]) =>
        statuses.reduce((a, s) => a + (n[s] ?? 0), 0);
      const reached = sum(REACHED_RECEIVED);
      const reviewed = sum(REVIEWED);
      const { cents, valued } = deps.dashboard.valueTotals(userId);
      return {
        monthlyOrders: deps.dashboard.orderedWithin(
          userId,
          range(first, addMonths(today, 1), zone),
        ),
        averageValue: valued > 0 ? Math.round(cents / valued) / 100 : 0,
        reviewRate: reached > 0 ? Math.round((reviewed * 100) / reached) : 0,
      };
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
