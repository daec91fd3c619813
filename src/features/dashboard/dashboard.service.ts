/**
 * The dashboard (docs/screens.md, docs/behaviour.md#data): status counts with today's orders, the newest orders, and the
 * stats whose definitions are in src/contract/dashboard.ts. "Today" and "this month" are the
 * user's, in their saved time zone (UTC when none is saved).
 */

import { DASHBOARD_RECENT_COUNT } from "../../contract/constants.ts";
import type {
  DashboardCounts,
  DashboardRecent,
  DashboardStats,
  OrderStatus,
} from "../../contract/index.ts";
import {
  addDays,
  addMonths,
  type DayParts,
  dayInZone,
  formatDay,
  startOfDayInZone,
} from "../../util/calendar-day.ts";
import { currencyOfUser, toOrder } from "../orders/order-model.ts";
import type { OrdersRepo } from "../orders/orders.repo.ts";
import { REMINDER_RULES } from "../reminders/reminders.service.ts";
import type { UsersRepo } from "../users/users.repo.ts";
import type { DashboardRepo, DayLimit, ZonedRange } from "./dashboard.repo.ts";

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

/** Today and this month in a zone, valid while the clock is within [from, to) (today's range). */
type ZonedDay = { from: number; to: number; today: ZonedRange; month: ZonedRange };

/**
 * Today's and this month's ranges per zone, computed again only when the clock leaves today
 * (the Intl calls behind them cost ~20 µs per request). Any instant in [start of today, start of
 * tomorrow) is today in the zone, so a cached day is exactly what dayInZone would give.
 */
function createZonedDays(clock: () => Date) {
  const days = new Map<string, ZonedDay>();
  return (zone: string): ZonedDay => {
    const t = clock().getTime();
    const hit = days.get(zone);
    if (hit && t >= hit.from && t < hit.to) return hit;
    const today = dayInZone(new Date(t), zone);
    const day: ZonedDay = {
      from: 0,
      to: 0,
      today: range(today, addDays(today, 1), zone),
      month: range({ ...today, day: 1 }, addMonths(today, 1), zone),
    };
    day.from = Date.parse(day.today.startIso);
    day.to = Date.parse(day.today.endIso);
    if (days.size >= 1000) days.clear(); // a few zones in practice; bounded all the same
    days.set(zone, day);
    return day;
  };
}

const parseDay = (day: string): DayParts => {
  const [year, month, d] = day.split("-").map(Number) as [number, number, number];
  return { year, month, day: d };
};

const ruleFor = (status: OrderStatus) => {
  const rule = REMINDER_RULES.find((r) => r.status === status);
  if (!rule) throw new Error(`No reminder rule for ${status}`);
  return rule;
};
const RECEIVED_RULE = ruleFor("Received");
const REJECTED_RULE = ruleFor("Review Rejected");

/**
 * Due this week and overdue reviews by the reminder days (src/contract/dashboard.ts): an age of at
 * least N whole days (reminders.service.ts `wholeDaysSince`) is a date whose day is at most
 * today − N in the user's zone. Overdue: age ≥ the overdue threshold; due this week: not overdue,
 * and age + 6 ≥ the due threshold.
 */
function reviewsDue(
  repo: DashboardRepo,
  userId: number,
  today: DayParts,
  zone: string,
): DashboardCounts["Reviews"] {
  const limit = (age: number): DayLimit => ({
    day: formatDay(addDays(today, -age)),
    before: startOfDayInZone(addDays(today, -age + 1), zone).toISOString(),
  });
  const [rDue, rOver] = RECEIVED_RULE.thresholds;
  const [jDue, jOver] = REJECTED_RULE.thresholds;
  const n = repo.reviewsDue(userId, {
    receivedOverdue: limit(rOver.days),
    receivedDue: limit(rDue.days - 6),
    rejectedOverdue: limit(jOver.days),
    rejectedDue: limit(jDue.days - 6),
  });
  return {
    dueThisWeek: n.due,
    overdue: n.overdue,
    dueAfterDays: rDue.days,
    overdueAfterDays: rOver.days,
    rewriteDueAfterDays: jDue.days,
    rewriteOverdueAfterDays: jOver.days,
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
  const zonedDay = createZonedDays(clock);

  return {
    counts(userId: number): DashboardCounts {
      const zone = zoneOf(userId);
      const { today } = zonedDay(zone);
      const { counts } = deps.dashboard.figures(userId);
      const count = (status: OrderStatus) => counts[status] ?? 0;
      return {
        Ordered: count("Ordered"),
        OrderedToday: deps.dashboard.placedWithin(userId, today),
        Shipped: count("Shipped"),
        Received: count("Received"),
        "Review Submitted": count("Review Submitted"),
        "Review Rejected": count("Review Rejected"),
        "Review Approved": count("Review Approved"),
        ShippedLate: deps.dashboard.shippedLate(userId, today.firstDay),
        Reviews: reviewsDue(deps.dashboard, userId, parseDay(today.firstDay), zone),
      };
    },

    recent(userId: number): DashboardRecent {
      return deps.orders.recent(userId, DASHBOARD_RECENT_COUNT).map(toOrder);
    },

    stats(userId: number): DashboardStats {
      const { month } = zonedDay(zoneOf(userId));
      const { counts, values } = deps.dashboard.figures(userId);
      const sum = (statuses: readonly OrderStatus[]) =>
        statuses.reduce((a, s) => a + (counts[s] ?? 0), 0);
      const reached = sum(REACHED_RECEIVED);
      const reviewed = sum(REVIEWED);
      const own = currencyOfUser(deps.users.findById(userId));
      const averages = values.map((t) => ({
        currency: t.currency,
        averageValue: t.valued > 0 ? Math.round(t.cents / t.valued) / 100 : 0,
        totalValue: t.cents / 100,
        orders: t.valued,
      }));
      // The user's own currency first, then the others most valued first.
      averages.sort((a, b) => Number(b.currency === own) - Number(a.currency === own));
      const main = averages[0];
      return {
        monthlyOrders: deps.dashboard.orderedWithin(userId, month),
        averageValue: main?.averageValue ?? 0,
        currency: main?.currency ?? own,
        averages,
        reviewRate: reached > 0 ? Math.round((reviewed * 100) / reached) : 0,
      };
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
