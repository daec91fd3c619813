/**
 * Dashboard (docs/screens.md, docs/behaviour.md#data): GET /api/dashboard/counts|recent|stats on seeded sets, with the user's
 * time zone deciding "today" and "this month". The definitions tested are the ones documented in
 * src/contract/dashboard.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { DashboardCounts, DashboardStats, Order } from "../../src/contract/index.ts";
import { createDashboardRepo } from "../../src/features/dashboard/dashboard.repo.ts";
import { createDashboardService } from "../../src/features/dashboard/dashboard.service.ts";
import { createOrdersRepo } from "../../src/features/orders/orders.repo.ts";
import { createUsersRepo } from "../../src/features/users/users.repo.ts";
import { addDays, dayInZone, formatDay, startOfDayInZone } from "../../src/util/calendar-day.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type SeedRow, seedOrders } from "../support/seed-orders.ts";
import { call } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

/** Orders of the user, created at the start of 2025 unless told otherwise. */
function seed(userId: number, rows: SeedRow[]): number[] {
  return seedOrders(
    h.db,
    userId,
    rows.map((r) => ({ created_at: "2025-01-01T00:00:00.000Z", ...r })),
  );
}

async function userIn(zone: string) {
  const u = await h.register();
  const res = await call(h, "PATCH", "/api/user/timezone", {
    token: u.token,
    body: { timezone: zone },
  });
  expect(res.status).toBe(200);
  return u;
}

/** A dashboard service over the test database with a fixed clock. */
const serviceAt = (iso: string) =>
  createDashboardService({
    dashboard: createDashboardRepo(h.db),
    orders: createOrdersRepo(h.db),
    users: createUsersRepo(h.db),
    now: () => new Date(iso),
  });

const ZERO_COUNTS: DashboardCounts = {
  Ordered: 0,
  OrderedToday: 0,
  Shipped: 0,
  Received: 0,
  "Review Submitted": 0,
  "Review Rejected": 0,
  "Review Approved": 0,
  ShippedLate: 0,
  Reviews: {
    dueThisWeek: 0,
    overdue: 0,
    dueAfterDays: 14,
    overdueAfterDays: 30,
    rewriteDueAfterDays: 3,
    rewriteOverdueAfterDays: 7,
  },
};

describe("GET /api/dashboard/*", () => {
  test("a new user sees zeros, an empty recent list, and nothing is cached", async () => {
    const u = await h.register();
    const counts = await call<DashboardCounts>(h, "GET", "/api/dashboard/counts", {
      token: u.token,
    });
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual(ZERO_COUNTS);
    const recent = await call<Order[]>(h, "GET", "/api/dashboard/recent", { token: u.token });
    expect(recent.body).toEqual([]);
    const stats = await call<DashboardStats>(h, "GET", "/api/dashboard/stats", {
      token: u.token,
    });
    expect(stats.body).toEqual({
      monthlyOrders: 0,
      averageValue: 0,
      currency: "USD",
      averages: [],
      reviewRate: 0,
    });
    for (const r of [counts, recent, stats]) {
      expect(r.res.headers.get("cache-control")).toBe("no-store");
    }
  });

  test("needs a token", async () => {
    for (const p of ["counts", "recent", "stats"]) {
      expect((await h.req("GET", `/api/dashboard/${p}`)).status).toBe(401);
    }
  });
});

describe("counts", () => {
  test("one count per status (Canceled has none), only the user's own orders", async () => {
    const u = await h.register();
    const other = await h.register();
    seed(u.userid, [
      { status: "Ordered" },
      { status: "Ordered" },
      { status: "Ordered" },
      { status: "Shipped" },
      { status: "Shipped" },
      { status: "Received" },
      { status: "Review Submitted" },
      { status: "Review Submitted" },
      { status: "Review Submitted" },
      { status: "Review Submitted" },
      { status: "Review Rejected" },
      { status: "Review Approved" },
      { status: "Review Approved" },
      { status: "Canceled" },
      { status: "Canceled" },
    ]);
    seed(other.userid, [{ status: "Ordered" }, { status: "Shipped" }]);
    const { body } = await call<DashboardCounts>(h, "GET", "/api/dashboard/counts", {
      token: u.token,
    });
    expect(body).toEqual({
      ...ZERO_COUNTS,
      Ordered: 3,
      OrderedToday: 0,
      Shipped: 2,
      Received: 1,
      "Review Submitted": 4,
      "Review Rejected": 1,
      "Review Approved": 2,
    });
  });

  test("OrderedToday: ordered (else its mail arrived) today in the user's zone, any status but Canceled", async () => {
    const zone = "Pacific/Kiritimati"; // UTC+14: its today is mostly UTC's tomorrow
    const u = await userIn(zone);
    let now = new Date();
    let today = dayInZone(now, zone);
    let end = startOfDayInZone(addDays(today, 1), zone).getTime();
    if (end - now.getTime() < 5_000) {
      await Bun.sleep(end - now.getTime() + 50); // never straddle the zone's midnight
      now = new Date();
      today = dayInZone(now, zone);
      end = startOfDayInZone(addDays(today, 1), zone).getTime();
    }
    const start = startOfDayInZone(today, zone).getTime();
    const iso = (t: number) => new Date(t).toISOString();
    seed(u.userid, [
      { date_ordered: iso(start), status: "Ordered" }, // the zone's midnight: today
      { date_ordered: iso(start + 60_000), status: "Shipped" }, // today, any status
      { date_ordered: iso(end - 1), status: "Review Approved" }, // the last instant of today
      { date_ordered: formatDay(today), status: "Received" }, // a bare day: today
      // No date ordered: its mail arrived today (created from it a while later).
      { date_ordered: null, mail_date: iso(start + 30_000), created_at: iso(now.getTime()) },
      // No date ordered, added today: typed, or from old mail or a report: not ordered today.
      { date_ordered: null, created_at: iso(now.getTime()) },
      { date_ordered: null, mail_date: iso(start - 1), created_at: iso(now.getTime()) },
      { date_ordered: null, mail_date: iso(start + 60_000), status: "Canceled" },
      { date_ordered: iso(start - 1) }, // one millisecond before midnight: yesterday
      { date_ordered: iso(end) }, // tomorrow
      { date_ordered: formatDay(addDays(today, -1)) }, // yesterday as a bare day
      { date_ordered: iso(start - 1), created_at: iso(now.getTime()) }, // ordered yesterday
      { date_ordered: iso(start + 60_000), status: "Canceled" }, // canceled does not count
    ]);
    const { body } = await call<DashboardCounts>(h, "GET", "/api/dashboard/counts", {
      token: u.token,
    });
    expect(body.OrderedToday).toBe(5);
  });

  test("the same instants count on different days in zones ahead of and behind UTC", async () => {
    // 2026-11-20T03:00Z is Friday 12:00 in Tokyo and Thursday 19:00 in Los Angeles.
    const tokyo = await userIn("Asia/Tokyo");
    const la = await userIn("America/Los_Angeles");
    for (const u of [tokyo, la]) {
      seed(u.userid, [
        { date_ordered: "2026-11-19T14:59:59.000Z" }, // Tokyo Thu 23:59:59, LA Thu 06:59:59
        { date_ordered: "2026-11-19T15:00:00.000Z" }, // Tokyo Fri 00:00,    LA Thu 07:00
        { date_ordered: "2026-11-20T07:59:59.000Z" }, // Tokyo Fri 16:59,    LA Thu 23:59:59
        { date_ordered: "2026-11-20T08:00:00.000Z" }, // Tokyo Fri 17:00,    LA Fri 00:00
        { date_ordered: "2026-11-20" }, // a bare Friday
      ]);
    }
    const svc = serviceAt("2026-11-20T03:00:00.000Z");
    expect(svc.counts(tokyo.userid).OrderedToday).toBe(4); // Fri: the last four
    expect(svc.counts(la.userid).OrderedToday).toBe(3); // Thu: the first three
    // An hour before Tokyo's midnight it is still Thursday there
    expect(serviceAt("2026-11-19T14:00:00.000Z").counts(tokyo.userid).OrderedToday).toBe(1);
  });

  test("a user without a saved zone counts in UTC", async () => {
    const u = await h.register();
    seed(u.userid, [
      { date_ordered: "2026-11-19T23:59:59.999Z" },
      { date_ordered: "2026-11-20T00:00:00.000Z" },
      { date_ordered: "2026-11-20T23:59:59.999Z" },
      { date_ordered: "2026-11-21T00:00:00.000Z" },
    ]);
    expect(serviceAt("2026-11-20T12:00:00.000Z").counts(u.userid).OrderedToday).toBe(2);
  });
});

describe("late parcels and reviews due", () => {
  test("ShippedLate: Shipped orders whose expected day is before today in the user's zone", async () => {
    const u = await userIn("Asia/Tokyo");
    seed(u.userid, [
      { status: "Shipped", expected_delivery_date: "2026-11-19" }, // late
      { status: "Shipped", expected_delivery_date: "2026-11-10", expected_delivery_estimated: 1 },
      { status: "Shipped", expected_delivery_date: "2026-11-20" }, // today in Tokyo: not late yet
      { status: "Shipped", expected_delivery_date: "2026-11-21" },
      { status: "Shipped", expected_delivery_date: null }, // no expected day: never late
      { status: "Received", expected_delivery_date: "2026-11-01" }, // arrived: not late
      { status: "Ordered", expected_delivery_date: "2026-11-01" },
    ]);
    // 2026-11-20T03:00Z is Friday 20 Nov in Tokyo.
    expect(serviceAt("2026-11-20T03:00:00.000Z").counts(u.userid).ShippedLate).toBe(2);
    // Through the API as well (today's real date: everything above is in the past).
    const { body } = await call<DashboardCounts>(h, "GET", "/api/dashboard/counts", {
      token: u.token,
    });
    expect(body.ShippedLate).toBe(4);
  });

  test("Reviews: due this week and overdue by the reminder days (14/30 after delivery, 3/7 after a rejection)", async () => {
    const u = await userIn("UTC");
    seed(u.userid, [
      { status: "Received", date_delivered: "2026-11-19T10:00:00.000Z" }, // 1 day: due in 13
      { status: "Received", date_delivered: "2026-11-13T10:00:00.000Z" }, // 7 days: due in 7
      { status: "Received", date_delivered: "2026-11-12T10:00:00.000Z" }, // 8 days: due in 6
      { status: "Received", date_delivered: "2026-11-01" }, // 19 days: due (past 14)
      { status: "Received", date_delivered: "2026-10-22T10:00:00.000Z" }, // 29 days: still due
      { status: "Received", date_delivered: "2026-10-21T10:00:00.000Z" }, // 30 days: overdue
      { status: "Received", date_delivered: null }, // no delivery date: no age
      { status: "Review Rejected", date_review_rejected: "2026-11-19T10:00:00.000Z" }, // due
      { status: "Review Rejected", date_review_rejected: "2026-11-13T10:00:00.000Z" }, // 7: overdue
      { status: "Review Submitted", date_delivered: "2026-09-01" }, // reviewed: neither
    ]);
    const c = serviceAt("2026-11-20T12:00:00.000Z").counts(u.userid);
    expect(c.Reviews).toEqual({ ...ZERO_COUNTS.Reviews, dueThisWeek: 4, overdue: 2 });
  });

  test("Reviews: ages are whole days in the user's zone", async () => {
    const tokyo = await userIn("Asia/Tokyo"); // now: 20 Nov 21:00 in Tokyo
    seed(tokyo.userid, [
      { status: "Received", date_delivered: "2026-10-21T14:59:59.000Z" }, // 21 Oct 23:59: 30 days
      { status: "Received", date_delivered: "2026-10-21T15:00:00.000Z" }, // 22 Oct 00:00: 29 days
    ]);
    const c = serviceAt("2026-11-20T12:00:00.000Z").counts(tokyo.userid);
    expect(c.Reviews).toMatchObject({ overdue: 1, dueThisWeek: 1 });
  });
});

describe("recent", () => {
  test(`the 6 newest orders by creation, newest first, only the user's`, async () => {
    const u = await h.register();
    const other = await h.register();
    const created = (d: number) => new Date(Date.UTC(2026, 2, d)).toISOString();
    const idsByDay = seed(
      u.userid,
      [5, 1, 8, 3, 7, 2, 6, 4].map((d) => ({ created_at: created(d), product_name: `Day ${d}` })),
    );
    seed(other.userid, [{ created_at: created(30), product_name: "Someone else's" }]);
    const { body } = await call<Order[]>(h, "GET", "/api/dashboard/recent", { token: u.token });
    expect(body.map((o) => o.productname)).toEqual([
      "Day 8",
      "Day 7",
      "Day 6",
      "Day 5",
      "Day 4",
      "Day 3",
    ]);
    expect(body[0]?.orderid).toBe(idsByDay[2]);
    expect(Object.keys(body[0] ?? {})).toContain("expecteddeliveryestimated");
  });
});

describe("stats", () => {
  test("monthlyOrders: not Canceled, ordered (else created) this month in the user's zone", async () => {
    const u = await userIn("America/New_York"); // UTC-5 in November, UTC-4 on 1 November
    seed(u.userid, [
      { date_ordered: "2026-11-01T04:00:00.000Z" }, // 1 Nov 00:00 New York: in
      { date_ordered: "2026-11-01T03:59:59.000Z" }, // 31 Oct 23:59 New York: out
      { date_ordered: "2026-11-15" }, // a bare day: in
      { date_ordered: "2026-11-30" }, // in
      { date_ordered: "2026-12-01T04:59:59.000Z" }, // 30 Nov 23:59 New York: in
      { date_ordered: "2026-12-01T05:00:00.000Z" }, // 1 Dec: out
      { date_ordered: "2026-12-01" }, // out
      { date_ordered: null, created_at: "2026-11-20T12:00:00.000Z" }, // created this month: in
      { date_ordered: "2026-10-20", created_at: "2026-11-20T12:00:00.000Z" }, // ordered in Oct: out
      { date_ordered: "2026-11-10", status: "Canceled" }, // canceled: out
      { date_ordered: "2026-11-10", status: "Review Approved" }, // any other status: in
      { date_ordered: "2025-11-10" }, // last year's November: out
    ]);
    expect(serviceAt("2026-11-20T12:00:00.000Z").stats(u.userid).monthlyOrders).toBe(6);
    // At 02:00 UTC on 1 December it is still 30 November in New York
    expect(serviceAt("2026-12-01T02:00:00.000Z").stats(u.userid).monthlyOrders).toBe(6);
    expect(serviceAt("2026-12-01T06:00:00.000Z").stats(u.userid).monthlyOrders).toBe(2);
  });

  test("averageValue: mean value in dollars of orders (not Canceled) that have one, to 2 decimals", async () => {
    const u = await h.register();
    seed(u.userid, [
      { value_cents: 1000, estimated_retail_value: "10.00" },
      { value_cents: 2000, estimated_retail_value: "20.00", status: "Review Approved" },
      { value_cents: 501, estimated_retail_value: "5.01", status: "Shipped" },
      { value_cents: null }, // no value: not counted
      { value_cents: 99999, estimated_retail_value: "999.99", status: "Canceled" }, // canceled
    ]);
    const { body } = await call<DashboardStats>(h, "GET", "/api/dashboard/stats", {
      token: u.token,
    });
    expect(body.averageValue).toBe(11.67); // (10 + 20 + 5.01) / 3 = 11.6700
  });

  test("averageValue through the API: values typed with $ and commas", async () => {
    const u = await h.register();
    for (const v of ["$1,000.00", "$9.99", "100"]) {
      await call(h, "POST", "/api/orders", {
        token: u.token,
        body: { productname: `Item ${v}`, asin: "B0VAL00001", estimatedretailvalue: v },
      });
    }
    const { body } = await call<DashboardStats>(h, "GET", "/api/dashboard/stats", {
      token: u.token,
    });
    expect(body.averageValue).toBe(370); // 1109.99 / 3 = 369.996…
    expect(body.monthlyOrders).toBe(3);
  });

  test("reviewRate: reviewed among orders that reached Received or later, rounded", async () => {
    const u = await h.register();
    seed(u.userid, [
      { status: "Received" },
      { status: "Review Submitted" },
      { status: "Review Approved" },
      { status: "Ordered" }, // not reached Received: not counted
      { status: "Shipped" },
      { status: "Canceled" },
    ]);
    const svc = serviceAt("2026-11-20T12:00:00.000Z");
    expect(svc.stats(u.userid).reviewRate).toBe(67); // 2 of 3
    seed(u.userid, [{ status: "Review Rejected" }, { status: "Received" }, { status: "Received" }]);
    expect(svc.stats(u.userid).reviewRate).toBe(50); // 3 of 6
  });

  test("another user's orders never count", async () => {
    const u = await h.register();
    const other = await h.register();
    seed(other.userid, [
      { status: "Review Approved", value_cents: 5000, date_ordered: "2026-11-05" },
    ]);
    expect(serviceAt("2026-11-20T12:00:00.000Z").stats(u.userid)).toEqual({
      monthlyOrders: 0,
      averageValue: 0,
      currency: "USD",
      averages: [],
      reviewRate: 0,
    });
  });

  test("averages per currency, never added together; the user's marketplace currency first", async () => {
    const u = await h.register();
    seed(u.userid, [
      { value_cents: 1000, estimated_retail_value: "10.00" },
      { value_cents: 3000, estimated_retail_value: "30.00" },
      { value_cents: 198000, estimated_retail_value: "1980.00", currency: "JPY" },
      { value_cents: 2000, estimated_retail_value: "20.00", currency: "EUR" },
      { value_cents: 4000, estimated_retail_value: "40.00", currency: "EUR" },
      { value_cents: 6000, estimated_retail_value: "60.00", currency: "EUR" },
      { value_cents: 9900, estimated_retail_value: "99.00", currency: "EUR", status: "Canceled" },
    ]);
    const get = async () =>
      (await call<DashboardStats>(h, "GET", "/api/dashboard/stats", { token: u.token })).body;
    // No marketplace yet (US): dollars first although euros are the most.
    let s = await get();
    expect([s.averageValue, s.currency]).toEqual([20, "USD"]);
    expect(s.averages).toEqual([
      { currency: "USD", averageValue: 20, totalValue: 40, orders: 2 },
      { currency: "EUR", averageValue: 40, totalValue: 120, orders: 3 },
      { currency: "JPY", averageValue: 1980, totalValue: 1980, orders: 1 },
    ]);
    const put = await call(h, "PUT", "/api/user/marketplace", {
      token: u.token,
      body: { vineMarketplace: "FR" },
    });
    expect(put.res.status).toBe(200);
    s = await get();
    expect([s.averageValue, s.currency]).toEqual([40, "EUR"]);
    expect(s.averages.map((a) => a.currency)).toEqual(["EUR", "USD", "JPY"]);
  });
});
