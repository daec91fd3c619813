/**
 * The dates an order's changes set (docs/behaviour.md#states-and-transitions): the date each
 * status stamps, and the expected delivery day from a date or a delivery text, against a real
 * SQLite file. The rest of the orders API is in orders.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Order, OrderStatus } from "../../src/contract/index.ts";
import { parseExpectedDelivery } from "../../src/features/orders/expected-delivery.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";
import { near, orderApi } from "./order-api.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const { create, put } = orderApi(() => h);

describe("status dates", () => {
  const stamps: [OrderStatus, keyof Order][] = [
    ["Received", "datedelivered"],
    ["Review Submitted", "datereviewsubmitted"],
    ["Review Approved", "datereviewapproved"],
    ["Review Rejected", "datereviewrejected"],
  ];
  for (const [status, field] of stamps) {
    test(`moving to ${status} stamps ${field} with now when it is empty`, async () => {
      const u = await h.register();
      const o = await create(u.token);
      expect(o[field]).toBeNull();
      const { body } = await put(u.token, o.orderid, { status });
      expect(body.status).toBe(status);
      expect(near(body[field] as string)).toBe(true);
    });

    test(`moving to ${status} keeps an existing ${field}`, async () => {
      const u = await h.register();
      const o = await create(u.token, { [field]: "2026-01-05" });
      const { body } = await put(u.token, o.orderid, { status });
      expect(body[field]).toBe("2026-01-05");
    });

    test(`a ${field} sent with the move to ${status} is used as sent`, async () => {
      const u = await h.register();
      const o = await create(u.token);
      const { body } = await put(u.token, o.orderid, { status, [field]: "2026-03-01" });
      expect(body[field]).toBe("2026-03-01");
    });
  }

  test("a new order created as Received is stamped", async () => {
    const u = await h.register();
    const o = await create(u.token, { status: "Received" });
    expect(near(o.datedelivered)).toBe(true);
  });

  test("Ordered, Shipped and Canceled stamp nothing; other fields keep their dates", async () => {
    const u = await h.register();
    const o = await create(u.token);
    for (const status of ["Shipped", "Canceled", "Ordered"]) {
      const { body } = await put(u.token, o.orderid, { status });
      expect(body.datedelivered).toBeNull();
      expect(body.datereviewsubmitted).toBeNull();
      expect(body.datereviewapproved).toBeNull();
      expect(body.datereviewrejected).toBeNull();
    }
    const r = await put(u.token, o.orderid, { status: "Received" });
    const stamped = r.body.datedelivered;
    const later = await put(u.token, o.orderid, { status: "Review Submitted" });
    expect(later.body.datedelivered).toBe(stamped);
  });
});

describe("expected delivery", () => {
  test("a text without a date is read in the user's zone and marked estimated", async () => {
    const u = await h.register();
    await call(h, "PATCH", "/api/user/timezone", {
      token: u.token,
      body: { timezone: "Pacific/Kiritimati" },
    });
    const want = parseExpectedDelivery("Arriving tomorrow", new Date(), "Pacific/Kiritimati");
    const o = await create(u.token, { expecteddeliverydatetext: "Arriving tomorrow" });
    expect(o.expecteddeliverydatetext).toBe("Arriving tomorrow");
    expect(o.expecteddeliverydate).toBe(want);
    expect(o.expecteddeliveryestimated).toBe(true);
  });

  test("an explicit date is real; a changed text without a date re-estimates", async () => {
    const u = await h.register();
    const o = await create(u.token, {
      expecteddeliverydatetext: "within 3 days",
      expecteddeliverydate: "2026-12-24",
    });
    expect(o.expecteddeliverydate).toBe("2026-12-24");
    expect(o.expecteddeliveryestimated).toBe(false);

    const want = parseExpectedDelivery("in 5 days", new Date(), "UTC");
    const changed = await put(u.token, o.orderid, { expecteddeliverydatetext: "in 5 days" });
    expect(changed.body.expecteddeliverydate).toBe(want);
    expect(changed.body.expecteddeliveryestimated).toBe(true);

    const explicit = await put(u.token, o.orderid, { expecteddeliverydate: "2026-12-26" });
    expect(explicit.body.expecteddeliverydate).toBe("2026-12-26");
    expect(explicit.body.expecteddeliveryestimated).toBe(false);
  });

  test("re-sending the stored text and date (a full edit form) changes neither", async () => {
    const u = await h.register();
    const o = await create(u.token, { expecteddeliverydatetext: "in 2 days" });
    const again = await put(u.token, o.orderid, {
      productname: "Renamed",
      expecteddeliverydatetext: o.expecteddeliverydatetext,
      expecteddeliverydate: o.expecteddeliverydate,
    });
    expect(again.body.expecteddeliverydate).toBe(o.expecteddeliverydate);
    expect(again.body.expecteddeliveryestimated).toBe(true);
  });

  test("an unreadable text gives no date; clearing the text clears its guess only", async () => {
    const u = await h.register();
    const o = await create(u.token, { expecteddeliverydatetext: "soon, probably" });
    expect(o.expecteddeliverydate).toBeNull();
    expect(o.expecteddeliveryestimated).toBe(true);

    const guessed = await put(u.token, o.orderid, { expecteddeliverydatetext: "in 1 day" });
    expect(guessed.body.expecteddeliverydate).not.toBeNull();
    const cleared = await put(u.token, o.orderid, { expecteddeliverydatetext: null });
    expect(cleared.body.expecteddeliverydate).toBeNull();
    expect(cleared.body.expecteddeliveryestimated).toBe(false);

    const real = await create(u.token, {
      expecteddeliverydate: "2026-12-24",
      expecteddeliverydatetext: "Dec 24",
    });
    const textGone = await put(u.token, real.orderid, { expecteddeliverydatetext: "" });
    expect(textGone.body.expecteddeliverydate).toBe("2026-12-24");
  });

  test("an explicit timestamp becomes the day in the user's zone", async () => {
    const u = await h.register();
    await call(h, "PATCH", "/api/user/timezone", {
      token: u.token,
      body: { timezone: "Asia/Tokyo" },
    });
    const o = await create(u.token, { expecteddeliverydate: "2026-12-24T20:00:00Z" });
    expect(o.expecteddeliverydate).toBe("2026-12-25");
  });
});
