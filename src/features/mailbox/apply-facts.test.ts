/** MailFacts → plan: the rules that do not need a database. */
import { describe, expect, test } from "bun:test";
import { anOrder } from "../../../test/fixtures/order.ts";
import type { Order, OrderStatus } from "../../contract/index.ts";
import type { MailFacts, MailItem, MailKind, MailOrder } from "../../mail/amazon/types.ts";
import { type FactsContext, matchItem, nameSimilarity, planFacts } from "./apply-facts.ts";

const NUMBER = "113-1234567-1234567";

const item = (over: Partial<MailItem> = {}): MailItem => ({
  productname: "Wireless Earbuds Pro, Bluetooth 5.3, 40h Playtime",
  asin: "B0EARBUDS1",
  producturl: "https://www.amazon.com/dp/B0EARBUDS1",
  productimage: "https://m.media-amazon.com/images/I/earbuds.jpg",
  price: "0.00",
  quantity: 1,
  ...over,
});

const mailOrder = (over: Partial<MailOrder> = {}): MailOrder => ({
  amazonordernumber: NUMBER,
  items: [item()],
  shiptoaddress: "Jane Doe, SPRINGFIELD, IL",
  dateordered: null,
  expecteddeliverydatetext: "Friday, January 17",
  trackingnumber: null,
  carrier: null,
  datedelivered: null,
  total: "0.00",
  ...over,
});

const facts = (kind: MailKind, orders: MailOrder[]): MailFacts => ({
  kind,
  marketplace: "US",
  orders,
  reason: "test",
});

let nextId = 1;
const order = (over: Partial<Order> = {}): Order =>
  anOrder({
    orderid: nextId++,
    amazonordernumber: NUMBER,
    productname: "Wireless Earbuds Pro, Bluetooth 5.3, 40h Playtime",
    asin: "B0EARBUDS1",
    ...over,
  });

const MAIL_DATE = new Date("2025-01-18T16:20:00Z");
const ctx = (existing: Order[] = [], over: Partial<FactsContext> = {}): FactsContext => ({
  mode: "vine",
  byNumber: (n) => existing.filter((o) => o.amazonordernumber === n),
  unnumberedByAsin: (a) => existing.filter((o) => !o.amazonordernumber && o.asin === a),
  mailDate: MAIL_DATE,
  ...over,
});

describe("nameSimilarity and matchItem", () => {
  test("a subject's truncated title matches the full one; unrelated names do not", () => {
    expect(
      nameSimilarity("WOLFBOX MF50 Electric Air...", "WOLFBOX MF50 Electric Air Duster 110000RPM"),
    ).toBe(0.95);
    expect(
      nameSimilarity("Mopeka 024-2003 Tank Pro…", "Mopeka 024-2003 Tank Pro Check Sensor"),
    ).toBe(0.95);
    expect(nameSimilarity("Bamboo Cutting Board", "Stainless Steel Water Bottle")).toBeLessThan(
      0.6,
    );
    expect(nameSimilarity("“Café” Mug, 12 oz", "cafe mug 12 oz")).toBe(1);
  });

  test("ASIN first; a different ASIN is never matched by name; a one-item order matches its one item", () => {
    const a = order({ asin: "B0AAAAAAA1", productname: "Blue Mug" });
    const b = order({ asin: "B0BBBBBBB2", productname: "Red Kettle" });
    expect(matchItem(item({ asin: "b0bbbbbbb2", productname: "x" }), [a, b], new Set(), 2)).toBe(b);
    expect(
      matchItem(item({ asin: "B0CCCCCCC3", productname: "Blue Mug" }), [a, b], new Set(), 1),
    ).toBeNull();
    expect(matchItem(item({ asin: null, productname: "Blue Mug" }), [a, b], new Set(), 2)).toBe(a);
    expect(matchItem(item({ asin: null, productname: "Something" }), [a], new Set(), 1)).toBe(a);
    expect(
      matchItem(item({ asin: null, productname: "Blue Mug" }), [a, b], new Set([a.orderid]), 2),
    ).toBeNull();
  });
});

describe("order confirmations", () => {
  test("a Vine ($0.00) order: one create per item with the mail's fields", () => {
    const two = mailOrder({
      items: [item(), item({ asin: "B0SECOND22", productname: "USB-C Cable 2m", price: "0.00" })],
    });
    const plan = planFacts(facts("ordered", [two]), ctx());
    expect(plan.skip).toBeNull();
    expect(plan.creates).toHaveLength(2);
    expect(plan.creates[0]?.body).toMatchObject({
      productname: "Wireless Earbuds Pro, Bluetooth 5.3, 40h Playtime",
      asin: "B0EARBUDS1",
      producturl: "https://www.amazon.com/dp/B0EARBUDS1",
      productimage: "https://m.media-amazon.com/images/I/earbuds.jpg",
      estimatedretailvalue: null, // 0.00 is the Vine price, not the value
      shiptoaddress: "Jane Doe, SPRINGFIELD, IL",
      dateordered: MAIL_DATE.toISOString(),
      amazonordernumber: NUMBER,
      expecteddeliverydatetext: "Friday, January 17",
    });
  });

  test("vine mode skips a paid order; all mode creates it with its price", () => {
    const paid = mailOrder({ total: "24.99", items: [item({ price: "24.99" })] });
    expect(planFacts(facts("ordered", [paid]), ctx()).skip).toBe("not-vine");
    const plan = planFacts(facts("ordered", [paid]), ctx([], { mode: "all" }));
    expect(plan.creates[0]?.body.estimatedretailvalue).toBe("24.99");
  });

  test("no total: Vine when every item is 0.00; otherwise the Vine rule cannot be decided", () => {
    const o = mailOrder({ total: null });
    expect(planFacts(facts("ordered", [o]), ctx()).creates).toHaveLength(1);
    // Without the total an item price is no proof (the reader may have read another amount):
    // not taken for paid, not created: not understood, to be read again by a newer reader.
    for (const items of [[item({ price: "5.00" })], [item({ price: null })]]) {
      const p = planFacts(facts("ordered", [mailOrder({ total: null, items })]), ctx());
      expect(p).toMatchObject({ skip: "not-understood", undecided: 1, modeLimited: false });
      expect(p.creates).toHaveLength(0);
    }
  });

  test("a total the reader flags unread in Vine mode: not understood; in all mode the order is created", () => {
    const unreadTotal: MailFacts = {
      ...facts("ordered", [mailOrder({ total: null, items: [item({ price: null })] })]),
      unread: ["total"],
    };
    expect(planFacts(unreadTotal, ctx())).toMatchObject({ skip: "not-understood", undecided: 1 });
    const all = planFacts(unreadTotal, ctx([], { mode: "all" }));
    expect(all.skip).toBeNull();
    expect(all.creates.map((c) => c.body.productname)).toEqual([item().productname]);
    // A decided total still decides: 12.00 is paid (kept out), 0.00 is Vine.
    const paid = mailOrder({ total: "12.00", items: [item({ price: null })] });
    expect(planFacts(facts("ordered", [paid]), ctx()).skip).toBe("not-vine");
  });

  test("two orders in one confirmation, one undecided: the Vine one is created, the other left out", () => {
    const vine = mailOrder();
    const unknown = mailOrder({
      amazonordernumber: "113-7654321-7654321",
      total: null,
      items: [item({ asin: "B0OTHER001", productname: "Desk Lamp", price: null })],
    });
    const p = planFacts(facts("ordered", [vine, unknown]), ctx());
    expect(p.skip).toBeNull();
    expect(p.undecided).toBe(1);
    expect(p.creates.map((c) => c.body.amazonordernumber)).toEqual([NUMBER]);
  });

  test("kind other flagged unread kind, or an order mail with nothing read and something unread: not understood", () => {
    expect(planFacts({ ...facts("other", []), unread: ["kind"] }, ctx()).skip).toBe(
      "not-understood",
    );
    expect(planFacts(facts("other", []), ctx()).skip).toBe("not-an-order-mail");
    const noItems = facts("ordered", [mailOrder({ items: [] })]);
    expect(planFacts(noItems, ctx()).skip).toBe("unreadable");
    expect(planFacts({ ...noItems, unread: ["items"] }, ctx()).skip).toBe("not-understood");
  });

  test("read again after being applied (fill): only empty fields, no status change, no text replaced", () => {
    const typed = order({
      status: "Ordered",
      expecteddeliverydatetext: "Typed by the user",
      trackingnumber: null,
      productimage: null,
    });
    const shipped = mailOrder({ trackingnumber: "1Z999AA10123456784", carrier: "UPS" });
    const fill = ctx([typed], { fill: { creates: false } });
    const later = planFacts(facts("shipped", [shipped]), fill);
    expect(later.updates).toHaveLength(1);
    expect(later.updates[0]!.body).toEqual({
      trackingnumber: "1Z999AA10123456784",
      carrier: "UPS",
    });
    // Without fill the same mail moves it to Shipped and replaces the text.
    expect(planFacts(facts("shipped", [shipped]), ctx([typed])).updates[0]!.body).toMatchObject({
      status: "Shipped",
      expecteddeliverydatetext: "Friday, January 17",
    });
    // A confirmation read again fills the empty picture and never creates a missing item unless
    // the first reading missed items.
    const two = mailOrder({
      items: [item(), item({ asin: "B0SECOND01", productname: "Second Thing" })],
    });
    const again = planFacts(facts("ordered", [two]), fill);
    expect(again.creates).toHaveLength(0);
    expect(again.updates[0]!.body).toMatchObject({
      productimage: "https://m.media-amazon.com/images/I/earbuds.jpg",
    });
    expect(again.updates[0]!.body).not.toHaveProperty("expecteddeliverydatetext");
    expect(again.updates[0]!.body).not.toHaveProperty("productname");
    const missed = planFacts(facts("ordered", [two]), ctx([typed], { fill: { creates: true } }));
    expect(missed.creates.map((c) => c.body.asin)).toEqual(["B0SECOND01"]);
  });

  test("an item that exists already is not created again; a hand-entered one is adopted", () => {
    const existing = order({ producturl: null });
    const plan = planFacts(facts("ordered", [mailOrder()]), ctx([existing]));
    expect(plan.creates).toHaveLength(0);
    expect(plan.updates[0]?.body).toMatchObject({
      producturl: "https://www.amazon.com/dp/B0EARBUDS1",
    });

    const manual = order({ amazonordernumber: null });
    const adopted = planFacts(facts("ordered", [mailOrder()]), ctx([manual]));
    expect(adopted.creates).toHaveLength(0);
    expect(adopted.updates[0]?.order.orderid).toBe(manual.orderid);
    expect(adopted.updates[0]?.body.amazonordernumber).toBe(NUMBER);
  });

  test("bad values are dropped, not the order; a name too long is cut", () => {
    const o = mailOrder({
      items: [
        item({
          producturl: "javascript:alert(1)",
          productimage: "not a url",
          productname: "n".repeat(1500),
          price: "free",
        }),
      ],
    });
    const body = planFacts(facts("ordered", [o]), ctx([], { mode: "all" })).creates[0]?.body;
    expect(body?.producturl).toBeNull();
    expect(body?.productimage).toBeNull();
    expect(body?.estimatedretailvalue).toBeNull();
    expect(body?.productname).toHaveLength(1000);
  });

  test("nothing readable: unreadable; kind other: not-an-order-mail", () => {
    expect(planFacts(facts("ordered", []), ctx()).skip).toBe("unreadable");
    expect(planFacts(facts("ordered", [mailOrder({ items: [] })]), ctx()).skip).toBe("unreadable");
    expect(planFacts(facts("other", []), ctx()).skip).toBe("not-an-order-mail");
  });
});

describe("later mail never moves an order backwards", () => {
  const cases: [MailKind, OrderStatus, OrderStatus | null][] = [
    ["shipped", "Ordered", "Shipped"],
    ["shipped", "Received", null],
    ["out-for-delivery", "Ordered", "Shipped"],
    ["delivered", "Ordered", "Received"],
    ["delivered", "Shipped", "Received"],
    ["delivered", "Review Submitted", null],
    ["delivered", "Review Approved", null],
    ["delivered", "Canceled", null],
    ["canceled", "Ordered", "Canceled"],
    ["canceled", "Shipped", "Canceled"],
    ["canceled", "Received", null],
    ["canceled", "Review Rejected", null],
  ];
  for (const [kind, from, to] of cases) {
    test(`${kind} on ${from} → ${to ?? "no status change"}`, () => {
      const o = order({ status: from, datedelivered: "2025-01-10T00:00:00.000Z" });
      const plan = planFacts(facts(kind, [mailOrder({ items: [] })]), ctx([o]));
      expect(plan.skip).toBeNull();
      expect(plan.creates).toHaveLength(0);
      const status = plan.updates[0]?.body.status ?? null;
      expect(status).toBe(to);
    });
  }

  test("shipped: tracking number and carrier fill an empty tracking number; the estimate follows", () => {
    const o = order();
    const mail = mailOrder({
      items: [],
      trackingnumber: "1Z879E930346834440",
      carrier: "UPS",
      expecteddeliverydatetext: "Arriving tomorrow",
    });
    const body = planFacts(facts("shipped", [mail]), ctx([o])).updates[0]?.body;
    expect(body).toEqual({
      status: "Shipped",
      trackingnumber: "1Z879E930346834440",
      carrier: "UPS",
      expecteddeliverydatetext: "Arriving tomorrow",
    });
    const kept = order({ status: "Shipped", trackingnumber: "TBA123456789012" });
    const b2 = planFacts(facts("shipped", [mail]), ctx([kept])).updates[0]?.body;
    expect(b2?.trackingnumber).toBeUndefined();
  });

  test("a late delivered fills an empty datedelivered on a reviewed order, nothing else", () => {
    const o = order({ status: "Review Submitted", datedelivered: null });
    const plan = planFacts(
      facts("delivered", [mailOrder({ items: [], datedelivered: "2025-01-18T10:00:00Z" })]),
      ctx([o]),
    );
    expect(plan.updates[0]?.body).toEqual({ datedelivered: "2025-01-18T10:00:00.000Z" });
  });

  test("partial cancellation: only the named item", () => {
    const a = order({ asin: "B0AAAAAAA1", productname: "Blue Mug" });
    const b = order({ asin: "B0BBBBBBB2", productname: "Red Kettle" });
    const plan = planFacts(
      facts("canceled", [mailOrder({ items: [item({ asin: null, productname: "Red Kettle" })] })]),
      ctx([a, b]),
    );
    expect(plan.updates.map((u) => [u.order.orderid, u.body.status])).toEqual([
      [b.orderid, "Canceled"],
    ]);
  });

  test("delayed: the expected-delivery text only", () => {
    const o = order({ status: "Shipped", expecteddeliverydatetext: "Friday, January 17" });
    const plan = planFacts(
      facts("delayed", [
        mailOrder({ items: [], expecteddeliverydatetext: "Now expected January 20 - January 22" }),
      ]),
      ctx([o]),
    );
    expect(plan.updates[0]?.body).toEqual({
      expecteddeliverydatetext: "Now expected January 20 - January 22",
    });
  });

  test("an unknown order: no-matching-order in vine mode; all mode creates named items from shipping mail", () => {
    const mail = mailOrder({ trackingnumber: "TBA123456789012", carrier: "AMAZON" });
    expect(planFacts(facts("shipped", [mail]), ctx()).skip).toBe("no-matching-order");
    const all = planFacts(facts("shipped", [mail]), ctx([], { mode: "all" }));
    expect(all.creates[0]?.status).toBe("Shipped");
    expect(all.creates[0]?.body).toMatchObject({
      status: "Shipped",
      trackingnumber: "TBA123456789012",
      carrier: "AMAZON",
    });
    // ...but not from a mail that names no item, nor a cancellation
    expect(
      planFacts(facts("shipped", [mailOrder({ items: [] })]), ctx([], { mode: "all" })).skip,
    ).toBe("no-matching-order");
    expect(planFacts(facts("canceled", [mail]), ctx([], { mode: "all" })).skip).toBe(
      "no-matching-order",
    );
  });
});
