/**
 * Bad input to the orders endpoints (docs/behaviour.md#validation): a 4xx with the spec's message, and nothing changed
 * in the database: no order created, none edited, no event published.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { LiveEvent, Order } from "../../src/contract/index.ts";
import { CARRIERS } from "../../src/contract/index.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";

let h: Harness;
let token: string;
let order: Order;
const events: LiveEvent[] = [];

const snapshot = () =>
  JSON.stringify({
    orders: h.db.$client.query("SELECT * FROM orders ORDER BY id").all(),
    users: h.db.$client.query("SELECT id, email, displayname, timezone FROM users").all(),
  });

beforeAll(async () => {
  h = createHarness();
  const u = await h.register("bad-input@example.com");
  token = u.token;
  const res = await call<Order>(h, "POST", "/api/orders", {
    token,
    body: {
      productname: "Steel Water Bottle",
      asin: "B0BOTTLE01",
      producturl: "https://www.amazon.com/dp/B0BOTTLE01",
      estimatedretailvalue: "19.99",
      rating: 3,
    },
  });
  order = res.body;
  h.services.events.subscribe(u.userid, (e) => events.push(e));
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  events.length = 0;
});

const VALID = { productname: "Garden Hose", asin: "B0HOSE0001" };
const STATUS_MESSAGE =
  "Status must be one of: Ordered, Shipped, Received, Review Submitted, Review Approved, Review Rejected, Canceled";
const RATING_MESSAGE = "Rating must be a whole number from 1 to 5, or empty";
const CARRIER_MESSAGE = `Carrier must be one of: ${CARRIERS.join(", ")}, or empty`;

/** [what, body, message]: the same body is sent to POST (with the valid fields) and PUT. */
const fieldCases: [string, Record<string, unknown>, string][] = [
  ["an empty product name", { productname: "   " }, "Product name is required"],
  ["a product name that is not text", { productname: 42 }, "Product name must be text"],
  ["a product URL that is not a URL", { producturl: "not a url" }, "Must be a valid URL"],
  ["a javascript: product URL", { producturl: "javascript:alert(1)" }, "Must be a valid URL"],
  ["an empty ASIN", { asin: "" }, "ASIN is required"],
  ["an unknown status", { status: "Lost in transit" }, STATUS_MESSAGE],
  ["a lower-case status", { status: "shipped" }, STATUS_MESSAGE],
  ["rating 9", { rating: 9 }, RATING_MESSAGE],
  ["rating 0", { rating: 0 }, RATING_MESSAGE],
  ["rating 2.5", { rating: 2.5 }, RATING_MESSAGE],
  ['rating "5"', { rating: "5" }, RATING_MESSAGE],
  ['carrier "POSTNL"', { carrier: "POSTNL" }, CARRIER_MESSAGE],
  [
    'currency "EURO"',
    { currency: "EURO" },
    "Currency must be an ISO 4217 code such as USD, EUR, GBP or JPY",
  ],
  ["an ASIN over 20 characters", { asin: "B".repeat(21) }, "ASIN must be at most 20 characters"],
  [
    "a review subject over 500 characters",
    { reviewsubject: "s".repeat(501) },
    "Review subject must be at most 500 characters",
  ],
  [
    "a product name over 1000 characters",
    { productname: "p".repeat(1001) },
    "Product name must be at most 1000 characters",
  ],
  [
    "a tracking number over 64 characters",
    { trackingnumber: "1".repeat(65) },
    "Tracking number must be at most 64 characters",
  ],
  [
    "a value that is not an amount",
    { estimatedretailvalue: "about twenty" },
    "Estimated value must be an amount such as 24.99",
  ],
  [
    "a value of two billion dollars",
    { estimatedretailvalue: "$2,000,000,000" },
    "Estimated value must be less than $1,000,000,000",
  ],
  [
    "a date that is not a date",
    { dateordered: "yesterday-ish" },
    "Date ordered must be a date such as 2026-11-21",
  ],
  [
    "a day that does not exist",
    { datedelivered: "2026-02-30" },
    "Date delivered must be a date such as 2026-11-21",
  ],
  [
    "an expected delivery day that does not exist",
    { expecteddeliverydate: "2026-13-01" },
    "Expected delivery date must be a date such as 2026-11-21",
  ],
  [
    "a year out of range",
    { datereviewrejected: "+099999-01-01T00:00:00Z" },
    "Review rejected date must be a date such as 2026-11-21",
  ],
];

describe("POST /api/orders refuses bad fields and creates nothing", () => {
  test("a missing product name or ASIN names it", async () => {
    const before = snapshot();
    const a = await call(h, "POST", "/api/orders", { token, body: { asin: "B0X" } });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe("Product name is required");
    const b = await call(h, "POST", "/api/orders", { token, body: { productname: "Lamp" } });
    expect(b.status).toBe(400);
    expect(b.body.error).toBe("ASIN is required");
    expect(snapshot()).toBe(before);
    expect(events).toEqual([]);
  });

  for (const [what, body, message] of fieldCases) {
    test(`${what}: 400 "${message}"`, async () => {
      const before = snapshot();
      const res = await call(h, "POST", "/api/orders", { token, body: { ...VALID, ...body } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect(snapshot()).toBe(before);
      expect(events).toEqual([]);
    });
  }
});

describe("PUT /api/orders/{id} refuses bad fields and changes nothing", () => {
  for (const [what, body, message] of fieldCases) {
    test(`${what}: 400 "${message}"`, async () => {
      const before = snapshot();
      const res = await call(h, "PUT", `/api/orders/${order.orderid}`, {
        token,
        body: { productname: "Changed name", ...body },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect(snapshot()).toBe(before);
      expect(events).toEqual([]);
    });
  }

  test("an empty body is 400 and says what to send", async () => {
    const before = snapshot();
    const res = await call(h, "PUT", `/api/orders/${order.orderid}`, { token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Nothing to update: send at least one field");
    expect(snapshot()).toBe(before);
  });
});

describe("PUT /api/orders/{id}/tracking refuses bad fields", () => {
  test('carrier "POSTNL" and an over-long number are 400, nothing changes', async () => {
    const before = snapshot();
    const a = await call(h, "PUT", `/api/orders/${order.orderid}/tracking`, {
      token,
      body: { trackingnumber: "1Z879E930346834440", carrier: "POSTNL" },
    });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe(CARRIER_MESSAGE);
    const b = await call(h, "PUT", `/api/orders/${order.orderid}/tracking`, {
      token,
      body: { trackingnumber: "9".repeat(65) },
    });
    expect(b.status).toBe(400);
    expect(b.body.error).toBe("Tracking number must be at most 64 characters");
    const c = await call(h, "PUT", `/api/orders/${order.orderid}/tracking`, {
      token,
      body: { trackingnumber: 123456789012 },
    });
    expect(c.status).toBe(400);
    expect(c.body.error).toBe("Tracking number must be text");
    expect(snapshot()).toBe(before);
    expect(events).toEqual([]);
  });
});

describe("bodies that are not JSON objects, or too large", () => {
  const endpoints = () => [
    ["POST", "/api/orders"],
    ["PUT", `/api/orders/${order.orderid}`],
    ["PUT", `/api/orders/${order.orderid}/tracking`],
    ["POST", "/api/shipping/detect-carrier"],
  ];

  test("a 2 MB field is 413 and nothing changes", async () => {
    const before = snapshot();
    for (const [method, url] of endpoints()) {
      const res = await call(h, method!, url!, {
        token,
        body: { ...VALID, trackingNumber: "x", reviewtext: "r".repeat(2 * 1024 * 1024) },
      });
      expect(res.status).toBe(413);
      expect(res.body.error).toBe("The request body is too large (the limit is 1 MB)");
    }
    expect(snapshot()).toBe(before);
    expect(events).toEqual([]);
  });

  test("a field over its maximum inside the size limit is 400", async () => {
    const before = snapshot();
    const res = await call(h, "PUT", `/api/orders/${order.orderid}`, {
      token,
      body: { reviewtext: "r".repeat(20_001) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Review text must be at most 20000 characters");
    expect(snapshot()).toBe(before);
  });

  test("malformed JSON, arrays and non-JSON content types are refused", async () => {
    const before = snapshot();
    for (const [method, url] of endpoints()) {
      const malformed = await call(h, method!, url!, {
        token,
        raw: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toBe("The request body is not valid JSON");
      const array = await call(h, method!, url!, { token, body: [VALID] });
      expect(array.status).toBe(400);
      expect(array.body.error).toBe("The request body must be a JSON object");
      const form = await call(h, method!, url!, {
        token,
        raw: "productname=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
    }
    expect(snapshot()).toBe(before);
    expect(events).toEqual([]);
  });
});

test("the stored order is still exactly as created", async () => {
  const res = await call<Order>(h, "GET", `/api/orders/${order.orderid}`, { token });
  expect(res.body).toEqual(order);
});
