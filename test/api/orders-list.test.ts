/**
 * GET /api/orders (docs/screens.md, docs/api.md, docs/behaviour.md#constants-and-limits): paging
 * and the total, the status filter and search, the sorts, the per-filter orderings and query
 * validation, against a real SQLite file. The rest of the orders API is in orders.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";
import { ids, names, orderApi } from "./order-api.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const { create, put, seed, list } = orderApi(() => h);

describe("GET /api/orders: paging and the total", () => {
  test("X-Total-Count is every match; limit and offset page through them", async () => {
    const u = await h.register();
    seed(
      u.userid,
      Array.from({ length: 25 }, () => ({})),
    );
    const all = await list(u.token, "?limit=500");
    expect(all.status).toBe(200);
    expect(all.res.headers.get("cache-control")).toBe("no-store");
    expect(all.total).toBe(25);
    const pages = [];
    for (const offset of [0, 10, 20]) {
      const p = await list(u.token, `?limit=10&offset=${offset}`);
      expect(p.total).toBe(25);
      pages.push(...ids(p.body));
      expect(p.body.length).toBe(offset === 20 ? 5 : 10);
    }
    expect(pages).toEqual(ids(all.body));
    const past = await list(u.token, "?limit=10&offset=30");
    expect(past.body).toEqual([]);
    expect(past.total).toBe(25);
  });

  test("the default page is 100 orders", async () => {
    const u = await h.register();
    seed(
      u.userid,
      Array.from({ length: 120 }, () => ({})),
    );
    const res = await list(u.token);
    expect(res.body.length).toBe(100);
    expect(res.total).toBe(120);
  });
});

describe("GET /api/orders: status filter and search", () => {
  test("status is a stage title (any case) or all", async () => {
    const u = await h.register();
    seed(u.userid, [
      { status: "Ordered" },
      { status: "Shipped" },
      { status: "Shipped" },
      { status: "Canceled" },
    ]);
    expect((await list(u.token, "?status=Shipped")).total).toBe(2);
    expect((await list(u.token, "?status=shipped")).total).toBe(2);
    expect((await list(u.token, "?status=Canceled")).total).toBe(1);
    expect((await list(u.token, "?status=Review%20Approved")).total).toBe(0);
    expect((await list(u.token, "?status=all")).total).toBe(4);
    expect((await list(u.token, "?status=")).total).toBe(4);
  });

  test("q matches product name or order number, case-insensitively, trimmed", async () => {
    const u = await h.register();
    seed(u.userid, [
      { product_name: "Garden Hose 50ft", amazon_order_number: "114-1111111-0000001" },
      { product_name: "GARDEN gnome", amazon_order_number: "114-2222222-0000002" },
      { product_name: "Kitchen Scale", amazon_order_number: "113-9999999-0000003" },
      { product_name: "Desk Lamp", amazon_order_number: null },
    ]);
    expect(names((await list(u.token, "?q=garden&sort=oldest")).body)).toEqual([
      "Garden Hose 50ft",
      "GARDEN gnome",
    ]);
    expect(names((await list(u.token, `?q=${encodeURIComponent("  hOsE ")}`)).body)).toEqual([
      "Garden Hose 50ft",
    ]);
    expect(names((await list(u.token, "?q=113-9999")).body)).toEqual(["Kitchen Scale"]);
    expect(names((await list(u.token, "?q=0000002")).body)).toEqual(["GARDEN gnome"]);
    const none = await list(u.token, "?q=trampoline");
    expect(none.body).toEqual([]);
    expect(none.total).toBe(0);
    // search and status together
    seed(u.userid, [{ product_name: "Garden Chair", status: "Shipped" }]);
    expect(names((await list(u.token, "?q=garden&status=Shipped")).body)).toEqual(["Garden Chair"]);
  });

  test("short searches, quotes and FTS operators are plain text", async () => {
    const u = await h.register();
    seed(u.userid, [
      { product_name: 'Poster "Sunset" 24x36' },
      { product_name: "AB Roller" },
      { product_name: "Cable OR Charger" },
      { product_name: "Cable Charger" },
    ]);
    const q = async (s: string) =>
      names((await list(u.token, `?sort=oldest&q=${encodeURIComponent(s)}`)).body);
    expect(await q("ab")).toEqual(["AB Roller", "Cable OR Charger", "Cable Charger"]);
    expect(await q("x")).toEqual(['Poster "Sunset" 24x36']);
    expect(await q('"sunset"')).toEqual(['Poster "Sunset" 24x36']);
    expect(await q("cable or")).toEqual(["Cable OR Charger"]);
    expect(await q("cable charger")).toEqual(["Cable Charger"]);
    expect(await q("NEAR(cable")).toEqual([]);
    expect(await q("Cab*")).toEqual([]);
  });

  test("search follows renames, new order numbers and deletions", async () => {
    const u = await h.register();
    const o = await create(u.token, { productname: "Travel Pillow" });
    expect(names((await list(u.token, "?q=pillow")).body)).toEqual(["Travel Pillow"]);
    await put(u.token, o.orderid, { productname: "Neck Cushion", amazonordernumber: "112-555" });
    expect((await list(u.token, "?q=pillow")).total).toBe(0);
    expect(names((await list(u.token, "?q=cushion")).body)).toEqual(["Neck Cushion"]);
    expect(names((await list(u.token, "?q=112-5")).body)).toEqual(["Neck Cushion"]);
    await put(u.token, o.orderid, { status: "Shipped" });
    expect(names((await list(u.token, "?q=cushion")).body)).toEqual(["Neck Cushion"]);
    await call(h, "DELETE", `/api/orders/${o.orderid}`, { token: u.token });
    expect((await list(u.token, "?q=cushion")).total).toBe(0);
  });

  test("another user's orders never match a search", async () => {
    const alice = await h.register();
    const bob = await h.register();
    await create(alice.token, { productname: "Secret Gadget" });
    const res = await list(bob.token, "?q=gadget");
    expect(res.body).toEqual([]);
    expect(res.total).toBe(0);
  });

  test("a common search and a rare one find the same rows as a plain substring test, page by page", async () => {
    // Common text is found by walking the list's order; rare text, or a page far into the
    // matches, through the trigram index (orders.repo.ts): both must give the same pages.
    const u = await h.register();
    const words = ["Lamp", "Mug", "LAMP", "Hose", "lamp", "Cable"];
    const rows = Array.from({ length: 300 }, (_, i) => ({
      product_name: `${words[i % words.length]} ${i}`,
      amazon_order_number: i % 50 === 0 ? `114-LAMP-${i}` : `114-${1000 + i}`,
      status: i % 3 === 0 ? "Shipped" : "Ordered",
    }));
    // Non-ASCII letters whose lower case is ASCII (the Kelvin sign): not found by ASCII text.
    rows.push({
      product_name: "\u212Aelvin Lamp",
      amazon_order_number: "114-K",
      status: "Ordered",
    });
    seed(u.userid, rows);
    const asciiLower = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const expected = (q: string, status?: string) =>
      rows
        .filter(
          (r) =>
            (!status || r.status === status) &&
            (asciiLower(r.product_name).includes(q) ||
              asciiLower(r.amazon_order_number).includes(q)),
        )
        .map((r) => r.product_name);
    for (const [q, status] of [
      ["lamp", undefined],
      ["lamp", "Shipped"],
      ["kelvin", undefined],
      ["hose 2", undefined],
      ["114-lamp", undefined],
    ] as const) {
      const want = expected(q, status);
      const got: string[] = [];
      for (let offset = 0; offset === 0 || offset < want.length; offset += 20) {
        const page = await list(
          u.token,
          `?sort=oldest&limit=20&offset=${offset}&q=${encodeURIComponent(q.toUpperCase())}${status ? `&status=${status}` : ""}`,
        );
        expect(page.total).toBe(want.length);
        got.push(...names(page.body));
      }
      expect(got).toEqual(want);
    }
    expect(expected("lamp").length).toBeGreaterThan(100); // the walk is taken for the first pages
  });

  test("text with letters beyond ASCII matches whatever their case", async () => {
    const u = await h.register();
    seed(u.userid, [
      { product_name: "Ärmelschoner aus Leinen" },
      { product_name: "ÉCHARPE en laine" },
      { product_name: "Armel ohne Umlaut" },
    ]);
    const q = async (s: string) =>
      names((await list(u.token, `?sort=oldest&q=${encodeURIComponent(s)}`)).body);
    expect(await q("ärmel")).toEqual(["Ärmelschoner aus Leinen"]);
    expect(await q("écharpe")).toEqual(["ÉCHARPE en laine"]);
    expect(await q("armel")).toEqual(["Armel ohne Umlaut"]);
  });

  test("% and _ and \\ in the search match themselves", async () => {
    const u = await h.register();
    seed(u.userid, [
      { product_name: "100% Cotton Towel" },
      { product_name: "1000 Cotton Swabs" },
      { product_name: "snake_case Mug" },
      { product_name: "snakeXcase Mug" },
      { product_name: "Back\\slash Poster" },
    ]);
    const q = async (s: string) =>
      names((await list(u.token, `?sort=oldest&q=${encodeURIComponent(s)}`)).body);
    expect(await q("100%")).toEqual(["100% Cotton Towel"]);
    expect(await q("%")).toEqual(["100% Cotton Towel"]);
    expect(await q("snake_case")).toEqual(["snake_case Mug"]);
    expect(await q("_")).toEqual(["snake_case Mug"]);
    expect(await q("\\")).toEqual(["Back\\slash Poster"]);
    expect(await q("cotton")).toEqual(["100% Cotton Towel", "1000 Cotton Swabs"]);
  });
});

describe("GET /api/orders: sorts", () => {
  async function seeded() {
    const u = await h.register();
    const day = (d: number) => new Date(Date.UTC(2026, 5, d)).toISOString();
    seed(u.userid, [
      { product_name: "banana", status: "Shipped", value_cents: 999, created_at: day(3) },
      { product_name: "Apple", status: "Received", value_cents: 10000, created_at: day(1) },
      { product_name: "cherry", status: "Canceled", value_cents: null, created_at: day(5) },
      { product_name: "Date", status: "Ordered", value_cents: 2500, created_at: day(2) },
      { product_name: "elderberry", status: "Ordered", value_cents: 999, created_at: day(4) },
    ]);
    return u;
  }
  const cases: [string, string[]][] = [
    ["newest", ["cherry", "elderberry", "banana", "Date", "Apple"]],
    ["oldest", ["Apple", "Date", "banana", "elderberry", "cherry"]],
    ["product-asc", ["Apple", "banana", "cherry", "Date", "elderberry"]],
    ["product-desc", ["elderberry", "Date", "cherry", "banana", "Apple"]],
    ["status-asc", ["cherry", "Date", "elderberry", "Apple", "banana"]], // ties: id, oldest first
    ["value-desc", ["Apple", "Date", "elderberry", "banana", "cherry"]], // ties: id, newest first
    ["value-asc", ["banana", "elderberry", "Date", "Apple", "cherry"]],
  ];
  for (const [sort, want] of cases) {
    test(`sort=${sort}`, async () => {
      const u = await seeded();
      expect(names((await list(u.token, `?sort=${sort}`)).body)).toEqual(want);
    });
  }

  test("without a sort the list is newest first", async () => {
    const u = await seeded();
    expect(names((await list(u.token)).body)).toEqual(cases[0]![1]);
  });

  test('values sort as numbers: "$100.00" is above "$9.99"', async () => {
    const u = await h.register();
    for (const v of ["$9.99", "$100.00", "$20", "5"]) {
      await create(u.token, { productname: `Item ${v}`, estimatedretailvalue: v });
    }
    await create(u.token, { productname: "No value" });
    expect(names((await list(u.token, "?sort=value-desc")).body)).toEqual([
      "Item $100.00",
      "Item $20",
      "Item $9.99",
      "Item 5",
      "No value",
    ]);
    expect(names((await list(u.token, "?sort=value-asc")).body)).toEqual([
      "Item 5",
      "Item $9.99",
      "Item $20",
      "Item $100.00",
      "No value",
    ]);
  });

  test("Highest / Lowest Value order by currency, then amount: ¥4,990 is never above €129.99", async () => {
    const u = await h.register();
    for (const [name, value, currency] of [
      ["Yen 4990", "4990", "JPY"],
      ["Euro 129.99", "129.99", "EUR"],
      ["Euro 5", "5", "EUR"],
      ["Dollar 50", "50", "USD"],
      ["Yen 300", "300", "JPY"],
    ] as const) {
      await create(u.token, { productname: name, estimatedretailvalue: value, currency });
    }
    await create(u.token, { productname: "Euro no value", currency: "EUR" });
    expect(names((await list(u.token, "?sort=value-desc")).body)).toEqual([
      "Euro 129.99",
      "Euro 5",
      "Euro no value",
      "Yen 4990",
      "Yen 300",
      "Dollar 50",
    ]);
    expect(names((await list(u.token, "?sort=value-asc")).body)).toEqual([
      "Euro 5",
      "Euro 129.99",
      "Euro no value",
      "Yen 300",
      "Yen 4990",
      "Dollar 50",
    ]);
  });
});

describe("GET /api/orders: the per-filter orderings of docs/behaviour.md#constants-and-limits", () => {
  test("Received: oldest delivery first, no date last", async () => {
    const u = await h.register();
    const [a, b, c, d] = seed(u.userid, [
      { status: "Received", date_delivered: "2026-03-10T12:00:00.000Z" },
      { status: "Received", date_delivered: null },
      { status: "Received", date_delivered: "2026-03-01" },
      { status: "Received", date_delivered: "2026-03-05T08:00:00.000Z" },
    ]);
    expect(ids((await list(u.token, "?status=Received")).body)).toEqual([c, d, a, b]);
  });

  test("Shipped: real delivery dates first, then estimated ones, each earliest first, none last", async () => {
    const u = await h.register();
    const [realLate, estEarly, none, realEarly, estLate] = seed(u.userid, [
      { status: "Shipped", expected_delivery_date: "2026-03-20", expected_delivery_estimated: 0 },
      { status: "Shipped", expected_delivery_date: "2026-03-01", expected_delivery_estimated: 1 },
      { status: "Shipped", expected_delivery_date: null },
      { status: "Shipped", expected_delivery_date: "2026-03-10", expected_delivery_estimated: 0 },
      { status: "Shipped", expected_delivery_date: "2026-03-15", expected_delivery_estimated: 1 },
    ]);
    expect(ids((await list(u.token, "?status=Shipped")).body)).toEqual([
      realEarly,
      realLate,
      estEarly,
      estLate,
      none,
    ]);
  });

  test("Review Submitted: oldest submission first", async () => {
    const u = await h.register();
    const [a, b, c] = seed(u.userid, [
      { status: "Review Submitted", date_review_submitted: "2026-02-10T00:00:00.000Z" },
      { status: "Review Submitted", date_review_submitted: "2026-02-01T00:00:00.000Z" },
      { status: "Review Submitted", date_review_submitted: "2026-02-20T00:00:00.000Z" },
    ]);
    expect(ids((await list(u.token, "?status=Review%20Submitted")).body)).toEqual([b, a, c]);
  });

  test("Review Approved: newest approval first", async () => {
    const u = await h.register();
    const [a, b, c] = seed(u.userid, [
      { status: "Review Approved", date_review_approved: "2026-02-10T00:00:00.000Z" },
      { status: "Review Approved", date_review_approved: "2026-02-01T00:00:00.000Z" },
      { status: "Review Approved", date_review_approved: "2026-02-20T00:00:00.000Z" },
    ]);
    expect(ids((await list(u.token, "?status=Review%20Approved")).body)).toEqual([c, a, b]);
  });

  test("Review Rejected: oldest rejection first", async () => {
    const u = await h.register();
    const [a, b, c] = seed(u.userid, [
      { status: "Review Rejected", date_review_rejected: "2026-02-10T00:00:00.000Z" },
      { status: "Review Rejected", date_review_rejected: "2026-02-20T00:00:00.000Z" },
      { status: "Review Rejected", date_review_rejected: "2026-02-01T00:00:00.000Z" },
    ]);
    expect(ids((await list(u.token, "?status=Review%20Rejected")).body)).toEqual([c, a, b]);
  });

  test("ties break by id, and a chosen sort overrides the filter's ordering", async () => {
    const u = await h.register();
    const [a, b, c] = seed(u.userid, [
      { status: "Received", date_delivered: "2026-03-01", created_at: "2026-01-03T00:00:00.000Z" },
      { status: "Received", date_delivered: "2026-03-01", created_at: "2026-01-01T00:00:00.000Z" },
      { status: "Received", date_delivered: "2026-02-01", created_at: "2026-01-02T00:00:00.000Z" },
    ]);
    expect(ids((await list(u.token, "?status=Received")).body)).toEqual([c, a, b]);
    expect(ids((await list(u.token, "?status=Received&sort=newest")).body)).toEqual([a, c, b]);
  });

  test("paging follows the filter's ordering", async () => {
    const u = await h.register();
    const seededIds = seed(
      u.userid,
      Array.from({ length: 12 }, (_, i) => ({
        status: "Received",
        date_delivered: `2026-03-${String(12 - i).padStart(2, "0")}`,
      })),
    );
    const page2 = await list(u.token, "?status=Received&limit=5&offset=5");
    expect(ids(page2.body)).toEqual([...seededIds].reverse().slice(5, 10));
    expect(page2.total).toBe(12);
  });
});

describe("GET /api/orders: query validation", () => {
  const bad: [string, string][] = [
    [
      "?status=Lost",
      "Status must be one of: all, Ordered, Shipped, Received, Review Submitted, Review Approved, Review Rejected, Canceled",
    ],
    [
      "?sort=cheapest",
      "Sort must be one of: newest, oldest, product-asc, product-desc, status-asc, value-desc, value-asc",
    ],
    ["?limit=0", "limit must be a whole number from 1 to 500"],
    ["?limit=501", "limit must be a whole number from 1 to 500"],
    ["?limit=ten", "limit must be a whole number from 1 to 500"],
    ["?limit=2.5", "limit must be a whole number from 1 to 500"],
    ["?offset=-1", "offset must be a whole number, 0 or more"],
    ["?offset=x", "offset must be a whole number, 0 or more"],
    [`?q=${"a".repeat(201)}`, "Search text must be at most 200 characters"],
  ];
  for (const [query, message] of bad) {
    test(`${query.slice(0, 40)} is 400 "${message.slice(0, 40)}…"`, async () => {
      const u = await h.register();
      const res = await call(h, "GET", `/api/orders${query}`, { token: u.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });
  }

  test("the limits themselves are accepted", async () => {
    const u = await h.register();
    for (const q of ["?limit=1", "?limit=500", "?offset=0", `?q=${"a".repeat(200)}`]) {
      expect((await list(u.token, q)).status).toBe(200);
    }
  });
});
