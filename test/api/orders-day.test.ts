/**
 * A reviewer's real day, the orders API: "Mark delivered" for orders the Itemized
 * Report says shipped and nobody tracks, the delivery date set and corrected,
 * ASIN search and yen amounts. Real SQLite through the real app; the orders and Vine
 * services' clocks are fixed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type {
  MarkDeliveredAllResponse,
  Order,
  UntrackedShipmentsResponse,
} from "../../src/contract/index.ts";
import { REPORT_HEADERS } from "../../src/contract/vine-constants.ts";
import { createHarness, type Harness } from "../harness.ts";
import { buildXlsx } from "../support/xlsx.ts";

/** "Now": 21 Nov 2026, 12:00 UTC. */
const now = new Date("2026-11-21T12:00:00.000Z");
let h: Harness;
beforeAll(() => {
  h = createHarness({}, { vine: { now: () => now }, orders: { now: () => now } });
});
afterAll(() => h.close());

async function json<T>(res: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as T };
}

async function user(marketplace = "US") {
  const u = await h.register();
  expect(
    (await h.req("PATCH", "/api/user/timezone", { token: u.token, body: { timezone: "UTC" } }))
      .status,
  ).toBe(200);
  expect(
    (
      await h.req("PUT", "/api/user/marketplace", {
        token: u.token,
        body: { vineMarketplace: marketplace },
      })
    ).status,
  ).toBe(200);
  return u;
}

async function addOrder(token: string, fields: Record<string, unknown>) {
  return json<Order & { error?: string }>(
    h.req("POST", "/api/orders", {
      token,
      body: { productname: "Item", asin: "B0TEST0001", ...fields },
    }),
  );
}

const d = (s: string) => new Date(`${s}T00:00:00.000Z`);

async function importReport(token: string, rows: (string | number | Date | null)[][]) {
  const form = new FormData();
  form.append(
    "file",
    new File([new Uint8Array(buildXlsx([[...REPORT_HEADERS], ...rows]))], "Itemized Report.xlsx"),
  );
  const res = await h.req("POST", "/api/vine/itemized-report", { token, raw: form });
  expect(res.status).toBe(200);
}

const orders = async (token: string, q = "") =>
  (
    await json<Order[]>(
      h.req("GET", `/api/orders?status=all&sort=oldest&q=${encodeURIComponent(q)}`, { token }),
    )
  ).body;

describe("Mark delivered", () => {
  test("report orders with a shipped date are listed apart, with the usual day shown", async () => {
    const u = await user("DE");
    await importReport(u.token, [
      [
        "302-0000001-0000001",
        "B0AAAAAAA1",
        "Shipped long ago",
        "ORDER",
        d("2026-10-01"),
        d("2026-10-02"),
        null,
        10,
      ],
      [
        "302-0000002-0000002",
        "B0AAAAAAA2",
        "Shipped yesterday",
        "ORDER",
        d("2026-11-19"),
        d("2026-11-20"),
        null,
        20,
      ],
      [
        "302-0000003-0000003",
        "B0AAAAAAA3",
        "Not shipped",
        "ORDER",
        d("2026-11-20"),
        null,
        null,
        30,
      ],
    ]);
    const all = await orders(u.token);
    expect(all.map((o) => [o.asin, o.status, o.dateshipped])).toEqual([
      ["B0AAAAAAA1", "Shipped", "2026-10-02"],
      ["B0AAAAAAA2", "Shipped", "2026-11-20"],
      ["B0AAAAAAA3", "Ordered", null],
    ]);
    // A Shipped order with a tracking number is really in transit: not in the list.
    const tracked = await addOrder(u.token, { trackingnumber: "1Z999AA10123456784" });
    expect(tracked.body.status).toBe("Shipped");

    const list = await json<UntrackedShipmentsResponse>(
      h.req("GET", "/api/orders/untracked", { token: u.token }),
    );
    expect(list.status).toBe(200);
    // Germany: 2 usual days; the second would be 22 Nov, after today (21 Nov): today.
    expect(
      list.body.orders.map((o) => [
        o.productname,
        o.dateshipped,
        o.marketplace,
        o.usualdays,
        o.suggesteddelivered,
      ]),
    ).toEqual([
      ["Shipped long ago", "2026-10-02", "DE", 2, "2026-10-04"],
      ["Shipped yesterday", "2026-11-20", "DE", 2, "2026-11-21"],
    ]);
  });

  test("one order: the usual day by default, a chosen day, a day after today refused", async () => {
    const u = await user("US");
    await importReport(u.token, [
      [
        "111-0000001-0000001",
        "B0BBBBBBB1",
        "One",
        "ORDER",
        d("2026-10-01"),
        d("2026-10-02"),
        null,
        10,
      ],
      [
        "111-0000002-0000002",
        "B0BBBBBBB2",
        "Two",
        "ORDER",
        d("2026-10-01"),
        d("2026-10-03"),
        null,
        10,
      ],
    ]);
    const [one, two] = await orders(u.token);
    const future = await json<{ error: string }>(
      h.req("POST", `/api/orders/${one!.orderid}/delivered`, {
        token: u.token,
        body: { datedelivered: "2026-11-22" },
      }),
    );
    expect(future).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "Date delivered cannot be after today" }),
    });
    expect((await orders(u.token))[0]!.status).toBe("Shipped");

    const byDefault = await json<Order>(
      h.req("POST", `/api/orders/${one!.orderid}/delivered`, { token: u.token, body: {} }),
    );
    expect(byDefault.status).toBe(200);
    // United States: 3 usual days after 2 Oct.
    expect([byDefault.body.status, byDefault.body.datedelivered]).toEqual([
      "Received",
      "2026-10-05",
    ]);

    const chosen = await json<Order>(
      h.req("POST", `/api/orders/${two!.orderid}/delivered`, {
        token: u.token,
        body: { datedelivered: "2026-10-04" },
      }),
    );
    expect([chosen.body.status, chosen.body.datedelivered]).toEqual(["Received", "2026-10-04"]);

    const again = await json<{ error: string }>(
      h.req("POST", `/api/orders/${two!.orderid}/delivered`, { token: u.token, body: {} }),
    );
    expect(again.status).toBe(400);
    expect(again.body.error).toContain("already Received");
    const list = await json<UntrackedShipmentsResponse>(
      h.req("GET", "/api/orders/untracked", { token: u.token }),
    );
    expect(list.body.orders).toEqual([]);
  });

  test("all at once: each on its own usual day, or all on one day; others' orders untouched", async () => {
    const u = await user("UK");
    const other = await user("UK");
    const rows = [
      [
        "202-0000001-0000001",
        "B0CCCCCCC1",
        "A",
        "ORDER",
        d("2026-10-01"),
        d("2026-10-02"),
        null,
        10,
      ],
      [
        "202-0000002-0000002",
        "B0CCCCCCC2",
        "B",
        "ORDER",
        d("2026-10-01"),
        d("2026-10-06"),
        null,
        10,
      ],
    ];
    await importReport(u.token, rows);
    await importReport(other.token, rows);
    const res = await json<MarkDeliveredAllResponse>(
      h.req("POST", "/api/orders/untracked/delivered", { token: u.token, body: {} }),
    );
    expect(res).toEqual({
      status: 200,
      body: { updated: 2, message: "2 orders marked delivered" },
    });
    // United Kingdom: 2 usual days.
    expect((await orders(u.token)).map((o) => [o.status, o.datedelivered])).toEqual([
      ["Received", "2026-10-04"],
      ["Received", "2026-10-08"],
    ]);
    expect((await orders(other.token)).map((o) => o.status)).toEqual(["Shipped", "Shipped"]);
    // Received now, they reach review age: the reminders count from the delivery day.
    const before = h.services.notifications.list(u.userid).length;
    h.services.reminders.run(new Date("2026-10-20T12:00:00.000Z"));
    expect(h.services.notifications.list(u.userid).length - before).toBe(1);
    h.services.reminders.run(new Date("2026-10-22T12:00:00.000Z"));
    expect(h.services.notifications.list(u.userid).length - before).toBe(2);

    const oneDay = await json<MarkDeliveredAllResponse>(
      h.req("POST", "/api/orders/untracked/delivered", {
        token: other.token,
        body: { datedelivered: "2026-10-10" },
      }),
    );
    expect(oneDay.body.updated).toBe(2);
    expect((await orders(other.token)).map((o) => o.datedelivered)).toEqual([
      "2026-10-10",
      "2026-10-10",
    ]);
    const none = await json<MarkDeliveredAllResponse>(
      h.req("POST", "/api/orders/untracked/delivered", { token: other.token, body: {} }),
    );
    expect(none.body.updated).toBe(0);
  });
});

describe("delivery date", () => {
  test("set on Add Order and corrected on Edit Order; the review age follows it", async () => {
    const u = await user("US");
    const added = await addOrder(u.token, { status: "Received", datedelivered: "2026-11-10" });
    expect(added.body.datedelivered).toBe("2026-11-10");
    const put = await json<Order>(
      h.req("PUT", `/api/orders/${added.body.orderid}`, {
        token: u.token,
        body: { datedelivered: "2026-11-12" },
      }),
    );
    expect(put.body.datedelivered).toBe("2026-11-12");
    // The Received filter orders by the delivery date: the corrected one decides.
    const other = await addOrder(u.token, { status: "Received", datedelivered: "2026-11-11" });
    const received = (
      await json<Order[]>(h.req("GET", "/api/orders?status=Received", { token: u.token }))
    ).body;
    expect(received.map((o) => o.orderid)).toEqual([other.body.orderid, added.body.orderid]);
  });
});

describe("search and amounts", () => {
  test("an ASIN finds its order, in any case", async () => {
    const u = await user("US");
    await addOrder(u.token, { productname: "Garden hose", asin: "B0HOSE1234" });
    await addOrder(u.token, { productname: "Kettle", asin: "B0KETTLE99" });
    expect((await orders(u.token, "B0HOSE1234")).map((o) => o.productname)).toEqual([
      "Garden hose",
    ]);
    expect((await orders(u.token, "b0kettle99")).map((o) => o.productname)).toEqual(["Kettle"]);
    const res = await h.req("GET", "/api/orders?q=B0KETTLE99", { token: u.token });
    expect(res.headers.get("x-total-count")).toBe("1");
  });

  test("yen has no decimals: stored and shown as a whole number, a fraction refused", async () => {
    const u = await user("JP");
    const yen = await addOrder(u.token, { estimatedretailvalue: "4,990" });
    expect([yen.body.currency, yen.body.estimatedretailvalue]).toEqual(["JPY", "4990"]);
    const zeros = await addOrder(u.token, { estimatedretailvalue: "4990.00" });
    expect(zeros.body.estimatedretailvalue).toBe("4990");
    const fraction = await addOrder(u.token, { estimatedretailvalue: "4990.5" });
    expect(fraction.status).toBe(400);
    expect(fraction.body.error).toBe(
      "Amounts in JPY have no decimals: write a whole number such as 4990",
    );
    const dollars = await addOrder(u.token, { estimatedretailvalue: "129.9", currency: "USD" });
    expect(dollars.body.estimatedretailvalue).toBe("129.90");
    // The data export and the ETV export write yen without decimals too.
    const exported = await json<{ orders: Order[] }>(
      h.req("GET", "/api/user/export", { token: u.token }),
    );
    expect(
      exported.body.orders.filter((o) => o.currency === "JPY").map((o) => o.estimatedretailvalue),
    ).toEqual(["4990", "4990"]);
    const csv = await (
      await h.req("GET", "/api/vine/etv.csv?year=2026", { token: u.token })
    ).text();
    expect(csv).toContain(",4990,JPY\r\n");
    expect(csv).toContain("Total 2026 (without canceled orders),,,,,,9980,JPY");
  });
});
