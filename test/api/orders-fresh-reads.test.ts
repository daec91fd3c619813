/**
 * X-Total-Count, the list's pages and the dashboard's counts and stats show every way an order
 * changes in the very next read: through the API (create, edit, status, tracking, delete), raw SQL
 * on the server's connection, another connection, a rolled-back transaction, a new day. Nothing
 * computed from a user's orders may outlive a change of them.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { DashboardCounts, DashboardStats, Order } from "../../src/contract/index.ts";
import { createDashboardRepo } from "../../src/features/dashboard/dashboard.repo.ts";
import { createDashboardService } from "../../src/features/dashboard/dashboard.service.ts";
import { createOrdersRepo } from "../../src/features/orders/orders.repo.ts";
import { createUsersRepo } from "../../src/features/users/users.repo.ts";
import { createHarness, type Harness } from "../harness.ts";
import { seedOrder } from "../support/seed-orders.ts";
import { call } from "./helpers.ts";

const UPS_NUMBER = "1Z879E930346834440";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

async function create(token: string, body: Record<string, unknown> = {}): Promise<Order> {
  const res = await call<Order>(h, "POST", "/api/orders", {
    token,
    body: { productname: "Bamboo Cutting Board", asin: "B0TEST0001", ...body },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status}`);
  return res.body;
}

async function total(token: string, query = "") {
  const res = await h.req("GET", `/api/orders?limit=1${query}`, { token });
  expect(res.status).toBe(200);
  return Number(res.headers.get("x-total-count"));
}

const counts = async (token: string) =>
  (await call<DashboardCounts>(h, "GET", "/api/dashboard/counts", { token })).body;
const stats = async (token: string) =>
  (await call<DashboardStats>(h, "GET", "/api/dashboard/stats", { token })).body;

/** Reads every figure once first, so a figure kept from that read would show in the next. */
async function warm(token: string) {
  for (const q of ["", "&status=Shipped", "&status=Ordered", "&q=bamboo", "&q=ba"]) {
    await total(token, q);
  }
  await counts(token);
  await stats(token);
}

describe("writes through the API show in the next read", () => {
  test("create: totals (all, by status, by search) and dashboard counts and stats", async () => {
    const u = await h.register();
    await create(u.token, { estimatedretailvalue: "10.00" });
    await warm(u.token);
    expect(await total(u.token)).toBe(1);
    expect((await counts(u.token)).Ordered).toBe(1);
    expect((await stats(u.token)).averageValue).toBe(10);

    await create(u.token, {
      productname: "Garden Hose",
      estimatedretailvalue: "20.00",
      dateordered: new Date().toISOString(),
    });
    expect(await total(u.token)).toBe(2);
    expect(await total(u.token, "&status=Ordered")).toBe(2);
    expect(await total(u.token, "&q=bamboo")).toBe(1);
    expect(await total(u.token, "&q=hose")).toBe(1);
    const c = await counts(u.token);
    expect(c.Ordered).toBe(2);
    // The first has no order date: added today is not ordered today.
    expect(c.OrderedToday).toBe(1);
    expect(await stats(u.token)).toMatchObject({
      monthlyOrders: 2,
      averageValue: 15,
      currency: "USD",
      reviewRate: 0,
    });
  });

  test("edit: status, value and product name", async () => {
    const u = await h.register();
    const o = await create(u.token, { estimatedretailvalue: "10.00" });
    await create(u.token, { estimatedretailvalue: "30.00" });
    await warm(u.token);
    expect(await total(u.token, "&status=Received")).toBe(0);

    const put = (body: Record<string, unknown>) =>
      call(h, "PUT", `/api/orders/${o.orderid}`, { token: u.token, body });
    expect((await put({ status: "Received" })).status).toBe(200);
    expect(await total(u.token, "&status=Received")).toBe(1);
    expect(await total(u.token, "&status=Ordered")).toBe(1);
    expect((await counts(u.token)).Received).toBe(1);
    expect((await stats(u.token)).reviewRate).toBe(0);

    expect((await put({ status: "Review Submitted" })).status).toBe(200);
    expect((await counts(u.token))["Review Submitted"]).toBe(1);
    expect((await stats(u.token)).reviewRate).toBe(100);

    expect((await put({ estimatedretailvalue: "50.00" })).status).toBe(200);
    expect((await stats(u.token)).averageValue).toBe(40);

    expect(await total(u.token, "&q=bamboo")).toBe(2);
    expect((await put({ productname: "Ceramic Mug" })).status).toBe(200);
    expect(await total(u.token, "&q=bamboo")).toBe(1);
    expect(await total(u.token, "&q=mug")).toBe(1);

    expect((await put({ status: "Canceled" })).status).toBe(200);
    expect(await stats(u.token)).toMatchObject({
      monthlyOrders: 1,
      averageValue: 30,
      currency: "USD",
      reviewRate: 0,
    });
  });

  test("tracking: a number makes the order Shipped, clearing it takes it back", async () => {
    const u = await h.register();
    const o = await create(u.token);
    await warm(u.token);
    const track = (trackingnumber: string | null) =>
      call(h, "PUT", `/api/orders/${o.orderid}/tracking`, {
        token: u.token,
        body: { trackingnumber },
      });
    expect((await track(UPS_NUMBER)).status).toBe(200);
    expect(await total(u.token, "&status=Shipped")).toBe(1);
    expect(await total(u.token, "&status=Ordered")).toBe(0);
    expect((await counts(u.token)).Shipped).toBe(1);
    expect((await track(null)).status).toBe(200);
    expect(await total(u.token, "&status=Shipped")).toBe(0);
    expect((await counts(u.token)).Ordered).toBe(1);
  });

  test("delete", async () => {
    const u = await h.register();
    const o = await create(u.token, { estimatedretailvalue: "10.00" });
    await create(u.token, { estimatedretailvalue: "20.00" });
    await warm(u.token);
    expect((await call(h, "DELETE", `/api/orders/${o.orderid}`, { token: u.token })).status).toBe(
      200,
    );
    expect(await total(u.token)).toBe(1);
    expect(await total(u.token, "&q=bamboo")).toBe(1);
    expect((await counts(u.token)).Ordered).toBe(1);
    expect((await stats(u.token)).averageValue).toBe(20);
  });

  test("one user's writes leave the other user's figures right", async () => {
    const a = await h.register();
    const b = await h.register();
    await create(b.token);
    await warm(a.token);
    await warm(b.token);
    const o = await create(a.token);
    await call(h, "PUT", `/api/orders/${o.orderid}`, { token: a.token, body: { rating: 5 } });
    await call(h, "DELETE", `/api/orders/${o.orderid}`, { token: a.token });
    expect(await total(a.token)).toBe(0);
    expect(await total(b.token)).toBe(1);
    expect((await counts(b.token)).Ordered).toBe(1);
  });

  test("a page past the last match is empty, and the total stays right", async () => {
    const u = await h.register();
    await create(u.token);
    await warm(u.token);
    const res = await call<Order[]>(h, "GET", "/api/orders?limit=10&offset=1", { token: u.token });
    expect(res.body).toEqual([]);
    expect(res.res.headers.get("x-total-count")).toBe("1");
    await create(u.token);
    const next = await call<Order[]>(h, "GET", "/api/orders?limit=10&offset=1", { token: u.token });
    expect(next.body).toHaveLength(1);
    expect(next.res.headers.get("x-total-count")).toBe("2");
  });
});

/** The product names of a page as GET /api/orders answers it. */
async function pageNames(token: string, query = "") {
  const res = await call<Order[]>(h, "GET", `/api/orders?sort=oldest${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.map((o) => o.productname);
}

describe("a page read again shows every change to its orders", () => {
  test("edits through the API that keep the total: name, review text, status of a row", async () => {
    const u = await h.register();
    const o = await create(u.token, { productname: "Desk Lamp" });
    await create(u.token, { productname: "Garden Hose" });
    expect(await pageNames(u.token)).toEqual(["Desk Lamp", "Garden Hose"]);
    expect(await pageNames(u.token, "&q=lamp")).toEqual(["Desk Lamp"]);
    const put = (body: Record<string, unknown>) =>
      call<Order>(h, "PUT", `/api/orders/${o.orderid}`, { token: u.token, body });
    expect((await put({ productname: "Floor Lamp" })).status).toBe(200);
    expect(await pageNames(u.token)).toEqual(["Floor Lamp", "Garden Hose"]);
    expect(await pageNames(u.token, "&q=lamp")).toEqual(["Floor Lamp"]);
    expect((await put({ reviewtext: "Bright and steady." })).status).toBe(200);
    const page = await call<Order[]>(h, "GET", "/api/orders?sort=oldest", { token: u.token });
    expect(page.body[0]?.reviewtext).toBe("Bright and steady.");
    expect(page.res.headers.get("content-type")).toStartWith("application/json");
  });

  test("raw SQL on the server's connection and another connection change a row in place", async () => {
    const u = await h.register();
    const o = await create(u.token, { productname: "Desk Lamp" });
    expect(await pageNames(u.token)).toEqual(["Desk Lamp"]);
    h.db.$client.query("UPDATE orders SET product_name = 'Raw Rename' WHERE id = ?").run(o.orderid);
    expect(await pageNames(u.token)).toEqual(["Raw Rename"]);
    const other = new Database(h.config.dbFile);
    try {
      other.query("UPDATE orders SET product_name = 'Shell Rename' WHERE id = ?").run(o.orderid);
    } finally {
      other.close();
    }
    expect(await pageNames(u.token)).toEqual(["Shell Rename"]);
  });

  test("a page read inside a rolled-back transaction is not kept", async () => {
    const u = await h.register();
    const o = await create(u.token, { productname: "Desk Lamp" });
    expect(() =>
      h.db.$client.transaction(() => {
        h.services.orders.update(u.userid, o.orderid, { productname: "Doomed" } as never);
        const inside = h.services.orders.listJson(u.userid, {
          status: "all",
          q: "",
          sort: "oldest",
          limit: 100,
          offset: 0,
        } as never);
        expect(new TextDecoder().decode(inside.json)).toContain("Doomed");
        throw new Error("roll back");
      })(),
    ).toThrow("roll back");
    expect(await pageNames(u.token)).toEqual(["Desk Lamp"]);
  });
});

describe("writes that bypass the orders repo are noticed too", () => {
  const insertRaw = (db: Database, userId: number, status = "Ordered") =>
    seedOrder(db, userId, {
      product_name: "Raw Lamp",
      asin: "B0RAW",
      status,
      value_cents: 1000,
    });

  test("raw SQL on the server's own connection", async () => {
    const u = await h.register();
    await create(u.token);
    await warm(u.token);
    insertRaw(h.db.$client, u.userid, "Shipped");
    expect(await total(u.token)).toBe(2);
    expect(await total(u.token, "&status=Shipped")).toBe(1);
    expect(await total(u.token, "&q=lamp")).toBe(1);
    expect((await counts(u.token)).Shipped).toBe(1);
    h.db.$client.query("DELETE FROM orders WHERE user_id = ?").run(u.userid);
    expect(await total(u.token)).toBe(0);
    expect((await counts(u.token)).Ordered).toBe(0);
  });

  test("a raw write for one user is not hidden by a later API write of another user", async () => {
    const a = await h.register();
    const b = await h.register();
    await create(a.token);
    await warm(a.token);
    await warm(b.token);
    insertRaw(h.db.$client, a.userid);
    await create(b.token); // accounts for its own change only
    expect(await total(a.token)).toBe(2);
    expect((await counts(a.token)).Ordered).toBe(2);
    expect(await total(b.token)).toBe(1);
  });

  test("another connection to the same file (another process, the sqlite3 shell)", async () => {
    const u = await h.register();
    await create(u.token);
    await warm(u.token);
    const other = new Database(h.config.dbFile);
    try {
      insertRaw(other, u.userid);
    } finally {
      other.close();
    }
    expect(await total(u.token)).toBe(2);
    expect((await counts(u.token)).Ordered).toBe(2);
    expect((await stats(u.token)).averageValue).toBe(10);
  });

  test("a rolled-back transaction: read inside it is not kept, the write is undone", async () => {
    const u = await h.register();
    await create(u.token);
    await warm(u.token);
    const repo = createOrdersRepo(h.db);
    expect(() =>
      h.db.$client.transaction(() => {
        h.services.orders.create(u.userid, { productname: "Doomed", asin: "B0DOOM" } as never);
        // Inside the transaction the new order counts...
        expect(repo.list(u.userid, { limit: 1, offset: 0 }).total).toBe(2);
        throw new Error("roll back");
      })(),
    ).toThrow("roll back");
    // ...after the rollback it does not.
    expect(await total(u.token)).toBe(1);
    expect((await counts(u.token)).Ordered).toBe(1);
  });
});

describe("dashboard figures and the clock", () => {
  test("a new day (no write in between) counts today's orders afresh", async () => {
    const u = await h.register();
    seedOrder(h.db, u.userid, { date_ordered: "2026-11-20T12:00:00.000Z" });
    let now = new Date("2026-11-20T18:00:00.000Z");
    const svc = createDashboardService({
      dashboard: createDashboardRepo(h.db),
      orders: createOrdersRepo(h.db),
      users: createUsersRepo(h.db),
      now: () => now,
    });
    expect(svc.counts(u.userid).OrderedToday).toBe(1);
    expect(svc.counts(u.userid).OrderedToday).toBe(1);
    expect(svc.stats(u.userid).monthlyOrders).toBe(1);
    now = new Date("2026-11-21T00:00:00.000Z");
    expect(svc.counts(u.userid).OrderedToday).toBe(0);
    expect(svc.stats(u.userid).monthlyOrders).toBe(1);
    now = new Date("2026-12-01T00:00:00.000Z");
    expect(svc.stats(u.userid).monthlyOrders).toBe(0);
  });

  test("changing the time zone moves today with it", async () => {
    const u = await h.register();
    // 2026-11-20T03:00Z: still the 19th in Los Angeles
    seedOrder(h.db, u.userid, { date_ordered: "2026-11-20T03:00:00.000Z" });
    const svc = createDashboardService({
      dashboard: createDashboardRepo(h.db),
      orders: createOrdersRepo(h.db),
      users: createUsersRepo(h.db),
      now: () => new Date("2026-11-20T05:00:00.000Z"),
    });
    expect(svc.counts(u.userid).OrderedToday).toBe(1);
    const res = await call(h, "PATCH", "/api/user/timezone", {
      token: u.token,
      body: { timezone: "America/Los_Angeles" },
    });
    expect(res.status).toBe(200);
    expect(svc.counts(u.userid).OrderedToday).toBe(1); // 19th 20:00 and 22:00 in LA
    expect(
      createDashboardService({
        dashboard: createDashboardRepo(h.db),
        orders: createOrdersRepo(h.db),
        users: createUsersRepo(h.db),
        now: () => new Date("2026-11-20T09:00:00.000Z"), // the 20th 01:00 in LA
      }).counts(u.userid).OrderedToday,
    ).toBe(0);
  });

  test("stats handed out are copies: changing one does not change the next", async () => {
    const u = await h.register();
    await create(u.token, { estimatedretailvalue: "10.00" });
    const first = h.services.dashboard.stats(u.userid);
    first.averageValue = 999;
    expect(h.services.dashboard.stats(u.userid).averageValue).toBe(10);
  });
});
