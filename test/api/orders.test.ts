/**
 * Orders API (docs/screens.md, docs/behaviour.md#data, docs/behaviour.md#states-and-transitions,
 * docs/api.md): create/read/update/delete, ownership, the tracking call, carrier detection, live
 * events and the export, all against a real SQLite file. The list (GET /api/orders) is in
 * orders-list.test.ts, the dates an order's changes set in orders-dates.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import type { LiveEvent, Order } from "../../src/contract/index.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call, type ErrorBody } from "./helpers.ts";
import { ids, near, orderApi, UNKNOWN_NUMBER, UPS_NUMBER } from "./order-api.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const { orderRows, orderRow, snapshot, create, put, get, tracking, list } = orderApi(() => h);

describe("POST /api/orders and GET /api/orders/{id}", () => {
  test("creates an order with every field in the spec's shape; status defaults to Ordered", async () => {
    const u = await h.register();
    const { status, body } = await call<Order>(h, "POST", "/api/orders", {
      token: u.token,
      body: {
        productname: "  Ceramic Mug  ",
        asin: "B0MUG00001",
        amazonordernumber: "114-1234567-7654321",
        producturl: "https://www.amazon.com/dp/B0MUG00001",
        productimage: "https://m.media-amazon.com/images/I/mug.jpg",
        shiptoaddress: "1 Main St, Springfield",
        estimatedretailvalue: "$1,234.5",
        dateordered: "2026-11-01",
        deliverydetails: "Leave at the door",
      },
    });
    expect(status).toBe(201);
    expect(body).toEqual({
      orderid: expect.any(Number),
      amazonordernumber: "114-1234567-7654321",
      productname: "Ceramic Mug",
      producturl: "https://www.amazon.com/dp/B0MUG00001",
      productimage: "https://m.media-amazon.com/images/I/mug.jpg",
      asin: "B0MUG00001",
      shiptoaddress: "1 Main St, Springfield",
      estimatedretailvalue: "1234.50",
      currency: "USD",
      expecteddeliverydate: null,
      expecteddeliverydatetext: null,
      expecteddeliveryestimated: false,
      dateordered: "2026-11-01",
      datedelivered: null,
      dateshipped: null,
      status: "Ordered",
      rating: null,
      reviewsubject: null,
      reviewtext: null,
      reviewimages: [],
      reviewreference: null,
      datereviewsubmitted: null,
      datereviewapproved: null,
      datereviewrejected: null,
      trackingnumber: null,
      carrier: null,
      deliverydetails: "Leave at the door",
      lastTrackingUpdate: null,
      cantreviewreason: null,
      cantreviewnote: null,
      reviewexempt: false,
      updatedate: body.createdate,
      createdate: expect.any(String),
    });
    expect(near(body.createdate)).toBe(true);
    expect(orderRow(body.orderid)?.value_cents).toBe(123450);
    expect(orderRow(body.orderid)?.user_id).toBe(u.userid);

    const res = await get(u.token, body.orderid);
    expect(res.status).toBe(200);
    expect(res.res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual(body);
  });

  test("createdate and updatedate are the server's, whatever the client sends", async () => {
    const u = await h.register();
    const o = await create(u.token, { createdate: "2001-01-01", updatedate: "2001-01-01" });
    expect(near(o.createdate)).toBe(true);
    expect(near(o.updatedate)).toBe(true);
  });

  test("a timestamp in a date field is stored as an ISO instant", async () => {
    const u = await h.register();
    const o = await create(u.token, { dateordered: "2026-11-01T10:15:00-05:00" });
    expect(o.dateordered).toBe("2026-11-01T15:15:00.000Z");
  });

  test("estimated values are normalised and kept in cents", async () => {
    const u = await h.register();
    const cases: [string, string, number][] = [
      ["24.99", "24.99", 2499],
      ["$9.9", "9.90", 990],
      ["$ 100", "100.00", 10000],
      ["1,000,000.01", "1000000.01", 100000001],
      ["0.5", "0.50", 50],
    ];
    for (const [input, text, cents] of cases) {
      const o = await create(u.token, { estimatedretailvalue: input });
      expect(o.estimatedretailvalue).toBe(text);
      expect(orderRow(o.orderid)?.value_cents).toBe(cents);
    }
    const o = await create(u.token, { estimatedretailvalue: "12.00" });
    const cleared = await put(u.token, o.orderid, { estimatedretailvalue: "" });
    expect(cleared.body.estimatedretailvalue).toBeNull();
    expect(orderRow(o.orderid)?.value_cents).toBeNull();
  });

  test("a tracking number on a new order makes it Shipped and detects the carrier", async () => {
    const u = await h.register();
    const o = await create(u.token, { trackingnumber: UPS_NUMBER });
    expect(o.status).toBe("Shipped");
    expect(o.carrier).toBe("UPS");
    const explicit = await create(u.token, { trackingnumber: UPS_NUMBER, status: "Ordered" });
    expect(explicit.status).toBe("Ordered");
  });

  test("a missing or malformed id is 404 or 400", async () => {
    const u = await h.register();
    const missing = await get(u.token, 99999);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: "Order not found",
      code: "order_not_found",
      values: {},
    } as never);
    for (const bad of ["abc", "0", "-1", "1.5", "1e3", "99999999999999999"]) {
      const r = await call(h, "GET", `/api/orders/${bad}`, { token: u.token });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("id must be a positive number");
    }
  });

  test("every orders endpoint needs a token", async () => {
    for (const [method, url] of [
      ["GET", "/api/orders"],
      ["POST", "/api/orders"],
      ["GET", "/api/orders/1"],
      ["PUT", "/api/orders/1"],
      ["DELETE", "/api/orders/1"],
      ["PUT", "/api/orders/1/tracking"],
      ["POST", "/api/shipping/detect-carrier"],
    ] as const) {
      const res = await h.req(method, url, { body: {} });
      expect(res.status).toBe(401);
    }
    expect(orderRows()).toEqual([]);
  });
});

describe("PUT /api/orders/{id}", () => {
  test("a full edit answers the updated order and moves updatedate", async () => {
    const u = await h.register();
    const o = await create(u.token);
    await Bun.sleep(5);
    const { status, body } = await put(u.token, o.orderid, {
      productname: "Bamboo Board XL",
      asin: "B0TEST0002",
      shiptoaddress: "2 Side St",
      estimatedretailvalue: "45",
      rating: 4,
      reviewsubject: "Solid",
      reviewtext: "Works well.",
      carrier: "",
    });
    expect(status).toBe(200);
    expect(body.productname).toBe("Bamboo Board XL");
    expect(body.asin).toBe("B0TEST0002");
    expect(body.estimatedretailvalue).toBe("45.00");
    expect(body.rating).toBe(4);
    expect(body.reviewtext).toBe("Works well.");
    expect(body.status).toBe("Ordered");
    expect(body.createdate).toBe(o.createdate);
    expect(Date.parse(body.updatedate)).toBeGreaterThan(Date.parse(o.updatedate));
    expect((await get(u.token, o.orderid)).body).toEqual(body);
  });

  test("status only, as the list's inline change sends it", async () => {
    const u = await h.register();
    const o = await create(u.token);
    const { status, body } = await put(u.token, o.orderid, { status: "Canceled" });
    expect(status).toBe(200);
    expect(body).toEqual({ ...o, status: "Canceled", updatedate: body.updatedate });
  });

  test("empty text clears a field; rating may be emptied", async () => {
    const u = await h.register();
    const o = await create(u.token, { shiptoaddress: "Somewhere", rating: 5 });
    const { body } = await put(u.token, o.orderid, { shiptoaddress: "  ", rating: null });
    expect(body.shiptoaddress).toBeNull();
    expect(body.rating).toBeNull();
  });
});

describe("DELETE /api/orders/{id}", () => {
  test("removes the order and its media folder, and nothing of other orders", async () => {
    const u = await h.register();
    const a = await create(u.token);
    const b = await create(u.token);
    const dirA = path.join(h.config.mediaDir, String(u.userid), String(a.orderid));
    const dirB = path.join(h.config.mediaDir, String(u.userid), String(b.orderid));
    for (const d of [dirA, dirB]) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, "photo.jpg"), "jpeg");
    }
    const { status, body } = await call(h, "DELETE", `/api/orders/${a.orderid}`, {
      token: u.token,
    });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, message: "Order deleted" } as never);
    expect(fs.existsSync(dirA)).toBe(false);
    expect(fs.existsSync(path.join(dirB, "photo.jpg"))).toBe(true);
    expect((await get(u.token, a.orderid)).status).toBe(404);
    expect(ids((await list(u.token)).body)).toEqual([b.orderid]);
    // deleting it again: it is gone
    expect((await call(h, "DELETE", `/api/orders/${a.orderid}`, { token: u.token })).status).toBe(
      404,
    );
  });

  test("an order without a media folder is deleted too", async () => {
    const u = await h.register();
    const a = await create(u.token);
    expect((await call(h, "DELETE", `/api/orders/${a.orderid}`, { token: u.token })).status).toBe(
      200,
    );
    expect(orderRows()).toEqual([]);
  });
});

describe("another user's order is not found, and nothing changes", () => {
  test("GET, PUT, DELETE and tracking answer 404 Order not found", async () => {
    const alice = await h.register();
    const bob = await h.register();
    const o = await create(alice.token, { trackingnumber: UPS_NUMBER });
    const dir = path.join(h.config.mediaDir, String(alice.userid), String(o.orderid));
    fs.mkdirSync(dir, { recursive: true });
    const before = snapshot();
    const attempts = [
      call(h, "GET", `/api/orders/${o.orderid}`, { token: bob.token }),
      call(h, "PUT", `/api/orders/${o.orderid}`, {
        token: bob.token,
        body: { status: "Canceled", productname: "Mine now" },
      }),
      call(h, "DELETE", `/api/orders/${o.orderid}`, { token: bob.token }),
      call(h, "PUT", `/api/orders/${o.orderid}/tracking`, {
        token: bob.token,
        body: { trackingnumber: null, carrier: null },
      }),
    ];
    for (const r of await Promise.all(attempts)) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Order not found", code: "order_not_found", values: {} });
    }
    expect(snapshot()).toBe(before);
    expect(fs.existsSync(dir)).toBe(true);
    expect((await get(alice.token, o.orderid)).body).toEqual(o);
    const bobs = await list(bob.token);
    expect(bobs.body).toEqual([]);
    expect(bobs.total).toBe(0);
  });
});

describe("PUT /api/orders/{id}/tracking", () => {
  test("a number on an Ordered order makes it Shipped and detects the carrier", async () => {
    const u = await h.register();
    const o = await create(u.token, { expecteddeliverydate: "2026-12-24" });
    const { status, body } = await tracking(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(status).toBe(200);
    expect(body.order.status).toBe("Shipped");
    expect(body.order.trackingnumber).toBe(UPS_NUMBER);
    expect(body.order.carrier).toBe("UPS");
    expect(body.trackingInfo).toEqual({ delivered: false, expectedDelivery: "2026-12-24" });
    // No carrier credentials in this harness: the look-up is skipped and said so (the look-ups
    // themselves are in test/api/tracking*.test.ts).
    expect(body.warning).toBe(
      "UPS tracking is not set up on this server, so the delivery of this order is not checked automatically.",
    );
    expect((await get(u.token, o.orderid)).body).toEqual(body.order);
  });

  test("a number whose carrier cannot be told is saved with a warning", async () => {
    const u = await h.register();
    const o = await create(u.token);
    const { body } = await tracking(u.token, o.orderid, {
      trackingnumber: UNKNOWN_NUMBER,
      carrier: "",
    });
    expect(body.order.status).toBe("Shipped");
    expect(body.order.carrier).toBeNull();
    expect(body.warning).toBe(
      "The carrier could not be recognised from this tracking number; choose it by hand.",
    );
    const chosen = await tracking(u.token, o.orderid, {
      trackingnumber: UNKNOWN_NUMBER,
      carrier: "OTHER",
    });
    expect(chosen.body.order.carrier).toBe("OTHER");
    expect(chosen.body.warning).toBeUndefined();
  });

  test("a carrier chosen by hand wins over detection", async () => {
    const u = await h.register();
    const o = await create(u.token);
    const { body } = await tracking(u.token, o.orderid, {
      trackingnumber: UPS_NUMBER,
      carrier: "FEDEX",
    });
    expect(body.order.carrier).toBe("FEDEX");
  });

  test("clearing the number clears the carrier and takes Shipped back to Ordered", async () => {
    const u = await h.register();
    for (const empty of [null, ""]) {
      const o = await create(u.token, { trackingnumber: UPS_NUMBER });
      expect(o.status).toBe("Shipped");
      const { body } = await tracking(u.token, o.orderid, {
        trackingnumber: empty,
        carrier: "UPS",
      });
      expect(body.order.status).toBe("Ordered");
      expect(body.order.trackingnumber).toBeNull();
      expect(body.order.carrier).toBeNull();
      expect(body.warning).toBeUndefined();
    }
  });

  test("later stages keep their status; delivered says whether it arrived", async () => {
    const u = await h.register();
    const o = await create(u.token, { status: "Received" });
    const set = await tracking(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(set.body.order.status).toBe("Received");
    expect(set.body.trackingInfo).toEqual({ delivered: true, expectedDelivery: null });
    const cleared = await tracking(u.token, o.orderid, { trackingnumber: null });
    expect(cleared.body.order.status).toBe("Received");

    const canceled = await create(u.token, { status: "Canceled" });
    const c = await tracking(u.token, canceled.orderid, { trackingnumber: UPS_NUMBER });
    expect(c.body.order.status).toBe("Canceled");
    expect(c.body.trackingInfo?.delivered).toBe(false);
  });

  test("the same number without a carrier keeps the carrier chosen before", async () => {
    const u = await h.register();
    const o = await create(u.token);
    await tracking(u.token, o.orderid, { trackingnumber: UNKNOWN_NUMBER, carrier: "OTHER" });
    const { body } = await tracking(u.token, o.orderid, { trackingnumber: UNKNOWN_NUMBER });
    expect(body.order.carrier).toBe("OTHER");
  });

  test("the full edit applies the same rule when it sets a number without a status", async () => {
    const u = await h.register();
    const o = await create(u.token);
    const shipped = await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(shipped.body.status).toBe("Shipped");
    expect(shipped.body.carrier).toBe("UPS");
    const back = await put(u.token, o.orderid, { productname: "Same", trackingnumber: "" });
    expect(back.body.status).toBe("Ordered");
    expect(back.body.carrier).toBeNull();
    // An explicit status in the same request wins
    const explicit = await put(u.token, o.orderid, {
      trackingnumber: UPS_NUMBER,
      status: "Ordered",
    });
    expect(explicit.body.status).toBe("Ordered");
    expect(explicit.body.carrier).toBe("UPS");
  });
});

describe("POST /api/shipping/detect-carrier", () => {
  test("answers the carrier, or null when it cannot be told", async () => {
    const u = await h.register();
    const detect = (trackingNumber: unknown) =>
      call<{ carrier: string | null }>(h, "POST", "/api/shipping/detect-carrier", {
        token: u.token,
        body: { trackingNumber },
      });
    expect((await detect(UPS_NUMBER)).body).toEqual({ carrier: "UPS" });
    expect((await detect(" tba 1234 5678 9012 ")).body).toEqual({ carrier: "AMAZON" });
    expect((await detect(UNKNOWN_NUMBER)).body).toEqual({ carrier: null });
    expect((await detect("C1004444443")).body).toEqual({ carrier: null });
    const missing = await detect(undefined);
    expect(missing.status).toBe(400);
    expect((missing.body as unknown as ErrorBody).error).toBe("trackingNumber is required");
    const long = await detect("1".repeat(65));
    expect(long.status).toBe(400);
    expect((long.body as unknown as ErrorBody).error).toBe(
      "trackingNumber must be at most 64 characters",
    );
  });
});

describe("live events", () => {
  test("each change publishes its order event to its owner only, after the write", async () => {
    const alice = await h.register();
    const bob = await h.register();
    const got: LiveEvent[] = [];
    const bobGot: LiveEvent[] = [];
    const seen: (number | undefined)[] = [];
    const off = h.services.events.subscribe(alice.userid, (e) => {
      got.push(e);
      seen.push(orderRows().length); // the row is already there when the event arrives
    });
    const offBob = h.services.events.subscribe(bob.userid, (e) => bobGot.push(e));

    const o = await create(alice.token);
    await put(alice.token, o.orderid, { status: "Shipped" });
    await tracking(alice.token, o.orderid, { trackingnumber: UPS_NUMBER });
    await call(h, "DELETE", `/api/orders/${o.orderid}`, { token: alice.token });
    // failed attempts publish nothing
    await put(bob.token, o.orderid, { status: "Canceled" });
    await call(h, "POST", "/api/orders", { token: alice.token, body: { asin: "B0X" } });
    off();
    offBob();

    expect(got.map((e) => [e.type, e.table, e.operation])).toEqual([
      ["order.created", "order", "INSERT"],
      ["order.updated", "order", "UPDATE"],
      ["order.updated", "order", "UPDATE"],
      ["order.deleted", "order", "DELETE"],
    ]);
    expect(seen).toEqual([1, 1, 1, 0]);
    for (const e of got) expect(near(e.timestamp)).toBe(true);
    expect(bobGot).toEqual([]);
  });
});

describe("GET /api/user/export", () => {
  test("includes the user's orders, and only theirs", async () => {
    const alice = await h.register();
    const bob = await h.register();
    const a1 = await create(alice.token, { productname: "Alice 1" });
    const a2 = await create(alice.token, { productname: "Alice 2", trackingnumber: UPS_NUMBER });
    await create(bob.token, { productname: "Bob 1" });
    const res = await call<{ orders: Order[] }>(h, "GET", "/api/user/export", {
      token: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.orders).toEqual([a1, (await get(alice.token, a2.orderid)).body]);
  });
});
