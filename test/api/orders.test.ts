/**
 * Orders API (docs/screens.md, docs/behaviour.md#data, docs/behaviour.md#states-and-transitions, docs/api.md, docs/behaviour.md#constants-and-limits): create/read/update/delete, ownership, the lifecycle's
 * automatic changes, the tracking call, carrier detection, and the list's filter, search, sorts,
 * per-filter orderings and paging, all against a real SQLite file.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import type {
  LiveEvent,
  Order,
  OrderStatus,
  TrackingUpdateResponse,
} from "../../src/contract/index.ts";
import { parseExpectedDelivery } from "../../src/features/orders/expected-delivery.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type SeedRow, seedOrders } from "../support/seed-orders.ts";
import { call, type ErrorBody } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

// A UPS number whose check digit validates, and one no carrier can be told from.
const UPS_NUMBER = "1Z879E930346834440";
const UNKNOWN_NUMBER = "ZZ-0000-1234-5678";

type OrderDbRow = Record<string, unknown> & { id: number; user_id: number };
const orderRows = (): OrderDbRow[] =>
  h.db.$client.query("SELECT * FROM orders ORDER BY id").all() as OrderDbRow[];
const orderRow = (id: number): OrderDbRow | null =>
  (h.db.$client.query("SELECT * FROM orders WHERE id = ?").get(id) as OrderDbRow) ?? null;
const snapshot = () => JSON.stringify(orderRows());

async function create(token: string, body: Record<string, unknown> = {}): Promise<Order> {
  const res = await call<Order>(h, "POST", "/api/orders", {
    token,
    body: { productname: "Bamboo Cutting Board", asin: "B0TEST0001", ...body },
  });
  if (res.status !== 201)
    throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const put = (token: string, id: number, body: Record<string, unknown>) =>
  call<Order>(h, "PUT", `/api/orders/${id}`, { token, body });
const get = (token: string, id: number) => call<Order>(h, "GET", `/api/orders/${id}`, { token });
const tracking = (token: string, id: number, body: Record<string, unknown>) =>
  call<TrackingUpdateResponse>(h, "PUT", `/api/orders/${id}/tracking`, { token, body });

/** Rows straight into SQLite, for seeded sets with chosen dates. */
function seed<const T extends readonly SeedRow[]>(
  userId: number,
  rows: T,
): { -readonly [K in keyof T]: number } {
  return seedOrders(h.db, userId, [...rows]) as { -readonly [K in keyof T]: number };
}

async function list(token: string, query = "") {
  const res = await call<Order[]>(h, "GET", `/api/orders${query}`, { token });
  return { ...res, total: Number(res.res.headers.get("x-total-count")) };
}
const names = (orders: Order[]) => orders.map((o) => o.productname);
const ids = (orders: Order[]) => orders.map((o) => o.orderid);

const near = (iso: string | null, ms = 60_000) =>
  iso !== null && Math.abs(Date.parse(iso) - Date.now()) < ms;

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
    expect(missing.body).toEqual({ error: "Order not found" } as never);
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
      expect(r.body).toEqual({ error: "Order not found" });
    }
    expect(snapshot()).toBe(before);
    expect(fs.existsSync(dir)).toBe(true);
    expect((await get(alice.token, o.orderid)).body).toEqual(o);
    const bobs = await list(bob.token);
    expect(bobs.body).toEqual([]);
    expect(bobs.total).toBe(0);
  });
});

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

describe("live events", () => {
  test("each change publishes {table: order} to its owner only, after the write", async () => {
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

    expect(got.map((e) => [e.table, e.operation])).toEqual([
      ["order", "INSERT"],
      ["order", "UPDATE"],
      ["order", "UPDATE"],
      ["order", "DELETE"],
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
