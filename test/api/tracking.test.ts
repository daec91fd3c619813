/**
 * Carrier tracking API (docs/behaviour.md#validation, docs/api.md, docs/messages.md): preferences,
 * update-all and the single-order look-ups, on the real harness (SQLite, the real services and
 * carrier lookup) against the local fake carrier APIs (test/support/fake-carriers.ts). Faults are
 * in tracking-faults.test.ts, PUT /api/orders/{id}/tracking in tracking-save.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type {
  LiveEvent,
  Order,
  TrackingPreferences,
  UpdateAllTrackingResponse,
  UpdateOrderTrackingResponse,
} from "../../src/contract/index.ts";
import { createHarness, type Harness } from "../harness.ts";
import { fakeCarrierSuite } from "../support/carrier-suite.ts";
import type { FakeCarriers } from "../support/fake-carriers.ts";
import { type SeedRow, seedOrder } from "../support/seed-orders.ts";
import { call, type ErrorBody } from "./helpers.ts";

let fake: FakeCarriers;
let h: Harness;
fakeCarrierSuite(
  (f, next) => {
    fake = f;
    h = next;
  },
  () => h,
);

type OrderDbRow = Record<string, unknown> & { id: number };
const orderRow = (id: number) =>
  h.db.$client.query("SELECT * FROM orders WHERE id = ?").get(id) as OrderDbRow;

let seq = 0;
/** An order straight into SQLite (Shipped with a number unless told otherwise). */
function seed(userId: number, o: SeedRow = {}): number {
  seq++;
  return seedOrder(h.db, userId, {
    product_name: `Bamboo Cutting Board ${seq}`,
    asin: `B0TRACK${String(seq).padStart(3, "0")}`,
    status: "Shipped",
    tracking_number: `TESTNUM${String(seq).padStart(8, "0")}`,
    carrier: "UPS",
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:00:00.000Z",
    ...o,
  });
}
const numberOf = (id: number) => orderRow(id).tracking_number as string;

function eventsOf(userId: number): LiveEvent[] {
  const seen: LiveEvent[] = [];
  h.services.events.subscribe(userId, (e) => seen.push(e));
  return seen;
}

const updateAll = (token: string) =>
  call<UpdateAllTrackingResponse>(h, "POST", "/api/tracking/update-all", { token });
const updateOrder = (token: string, id: number | string) =>
  call<UpdateOrderTrackingResponse>(h, "POST", `/api/tracking/update-order/${id}`, { token });

describe("GET /api/config: which carriers can be looked up", () => {
  test("the carriers with keys (or all three with a Ship24 key); none without keys", async () => {
    const all = await call<{ trackingCarriers: string[] }>(h, "GET", "/api/config", {
      token: (await h.register()).token,
    });
    expect(all.body.trackingCarriers).toEqual(["UPS", "FEDEX", "USPS"]);

    const upsOnly: Record<string, string> = {};
    for (const [k, v] of Object.entries(fake.env)) if (k.startsWith("UPS_")) upsOnly[k] = v;
    const hu = createHarness(upsOnly);
    const none = createHarness();
    try {
      const a = await call<{ trackingCarriers: string[] }>(hu, "GET", "/api/config", {
        token: (await hu.register()).token,
      });
      expect(a.body.trackingCarriers).toEqual(["UPS"]);
      const b = await call<{ trackingCarriers: string[] }>(none, "GET", "/api/config", {
        token: (await none.register()).token,
      });
      expect(b.body.trackingCarriers).toEqual([]);
    } finally {
      await hu.close();
      await none.close();
    }
  });
});

describe("GET/POST /api/tracking/preferences", () => {
  test("defaults until saved, then the saved zone and time; the zone is the user's zone", async () => {
    const u = await h.register();
    const first = await call<TrackingPreferences>(h, "GET", "/api/tracking/preferences", {
      token: u.token,
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ timezone: null, trackingUpdateTime: "09:00" });

    const saved = await call<{ success: boolean; message: string }>(
      h,
      "POST",
      "/api/tracking/preferences",
      {
        token: u.token,
        body: { timezone: "europe/paris", updateTime: "18:30" },
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ success: true, message: "Tracking preferences saved" });
    const again = await call<TrackingPreferences>(h, "GET", "/api/tracking/preferences", {
      token: u.token,
    });
    expect(again.body).toEqual({ timezone: "Europe/Paris", trackingUpdateTime: "18:30" });
    const data = await call<{ timezone: string }>(h, "GET", "/api/user/data", { token: u.token });
    expect(data.body.timezone).toBe("Europe/Paris");
  });

  test("bad input is a 400 with the spec's message and changes nothing", async () => {
    const u = await h.register();
    await call(h, "POST", "/api/tracking/preferences", {
      token: u.token,
      body: { timezone: "America/Denver", updateTime: "07:00" },
    });
    const snapshot = () =>
      JSON.stringify(h.db.$client.query("SELECT * FROM users WHERE id = ?").get(u.userid));
    const before = snapshot();
    const cases: [unknown, string | RegExp][] = [
      [{ updateTime: "09:00" }, "Please select a timezone"],
      [{ timezone: "", updateTime: "09:00" }, "Please select a timezone"],
      [{ timezone: "   ", updateTime: "09:00" }, "Please select a timezone"],
      [{ timezone: 42, updateTime: "09:00" }, "Please select a timezone"],
      [{ timezone: "America/Chicago" }, "Please select a valid update time"],
      [{ timezone: "America/Chicago", updateTime: "9:00" }, "Please select a valid update time"],
      [{ timezone: "America/Chicago", updateTime: "24:00" }, "Please select a valid update time"],
      [{ timezone: "America/Chicago", updateTime: "09:60" }, "Please select a valid update time"],
      [{ timezone: "America/Chicago", updateTime: "9am" }, "Please select a valid update time"],
      [
        { timezone: "Mars/Olympus_Mons", updateTime: "09:00" },
        '"Mars/Olympus_Mons" is not a known time zone. Please select a timezone from the list, such as America/Chicago.',
      ],
      [{ timezone: "+05:00", updateTime: "09:00" }, /is not a known time zone/],
    ];
    for (const [body, message] of cases) {
      const res = await call<ErrorBody>(h, "POST", "/api/tracking/preferences", {
        token: u.token,
        body,
      });
      expect(res.status).toBe(400);
      if (typeof message === "string") expect(res.body.error).toBe(message);
      else expect(res.body.error).toMatch(message);
    }
    const notJson = await call<ErrorBody>(h, "POST", "/api/tracking/preferences", {
      token: u.token,
      raw: "timezone=UTC",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(notJson.status).toBe(415);
    expect(snapshot()).toBe(before);
  });

  test("every tracking endpoint needs a token", async () => {
    for (const [method, url] of [
      ["GET", "/api/tracking/preferences"],
      ["POST", "/api/tracking/preferences"],
      ["POST", "/api/tracking/update-all"],
      ["POST", "/api/tracking/update-order/1"],
      ["POST", "/api/orders/1/tracking/update"],
    ] as const) {
      const res = await call(h, method, url);
      expect(res.status).toBe(401);
    }
  });
});

describe("POST /api/tracking/update-all", () => {
  test("looks up this user's Shipped orders and applies each answer", async () => {
    const u = await h.register();
    const other = await h.register();
    const delivered = seed(u.userid, { carrier: "UPS" });
    fake.set(numberOf(delivered), {
      scenario: "delivered",
      deliveredAt: "2026-11-20T15:04:00.000Z",
      status: "Delivered, Front Door",
    });
    // An estimate read from the mail text: the carrier's date replaces it (no Estimated badge).
    const inTransit = seed(u.userid, {
      carrier: "FEDEX",
      expected_delivery_date: "2026-11-30",
      expected_delivery_date_text: "Arriving Monday",
      expected_delivery_estimated: 1,
    });
    fake.set(numberOf(inTransit), {
      scenario: "in-transit",
      expectedDelivery: "2026-11-24",
      status: "Arrived at FedEx location",
    });
    const usps = seed(u.userid, { carrier: "USPS" });
    const amazon = seed(u.userid, { carrier: "AMAZON", tracking_number: "TBA123456789012" });
    const otherCarrier = seed(u.userid, { carrier: "OTHER" });
    const noCarrier = seed(u.userid, { carrier: null });
    const ordered = seed(u.userid, { status: "Ordered" }); // not Shipped: not looked at
    const noNumber = seed(u.userid, { tracking_number: null });
    const someoneElses = seed(other.userid, { carrier: "UPS" });
    const untouched = [amazon, otherCarrier, noCarrier, ordered, noNumber, someoneElses];
    const before = untouched.map((id) => JSON.stringify(orderRow(id)));
    const events = eventsOf(u.userid);

    const { status, body } = await updateAll(u.token);
    expect(status).toBe(200);
    expect(body).toEqual({
      deliveredOrders: 1,
      totalProcessed: 6,
      successfulUpdates: 3,
      message:
        // Only the three looked up are "checked"; the skipped ones and the one without a
        // number are said as such, with what makes the last checkable.
        "Checked 3 shipped orders: 1 delivered, 2 still on the way. Skipped 1 Amazon Logistics order (they update from Amazon's delivery emails). Skipped 2 orders whose carrier cannot be looked up (only UPS, FedEx and USPS can). 1 shipped order has no tracking number: add one to have it checked.",
      // The same sentences as catalog ids and values, for a reader in another language.
      messageParts: [
        {
          code: "tracking.server.checked",
          values: { count: 3, delivered: 1, onTheWay: 2, troubled: 0 },
        },
        { code: "tracking.server.skippedAmazon", values: { count: 1 } },
        { code: "tracking.server.skippedOther", values: { count: 2 } },
        { code: "tracking.server.noNumber", values: { count: 1 } },
      ],
    });
    expect(untouched.map((id) => JSON.stringify(orderRow(id)))).toEqual(before);
    const calls = fake.stats().calls;
    expect(calls.UPS + calls.FEDEX + calls.USPS).toBe(3);

    const d = orderRow(delivered);
    expect(d.status).toBe("Received");
    expect(d.date_delivered).toBe("2026-11-20T15:04:00.000Z");
    expect(String(d.delivery_details)).toMatch(/^Delivered/);
    expect(Date.now() - Date.parse(String(d.last_tracking_update))).toBeLessThan(60_000);

    const t = orderRow(inTransit);
    expect(t.status).toBe("Shipped");
    expect(t.expected_delivery_date).toBe("2026-11-24");
    expect(t.expected_delivery_estimated).toBe(0);
    expect(t.expected_delivery_date_text).toBe("Arriving Monday");
    expect(String(t.delivery_details)).toContain("Arrived at FedEx location");
    expect(t.last_tracking_update).not.toBeNull();
    expect(orderRow(usps).last_tracking_update).not.toBeNull();

    // One notification about the delivery, and the browser told to refresh its orders.
    const notes = h.services.notifications.list(u.userid);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.level).toBe("information");
    expect(notes[0]?.message).toContain("Delivered: <strong>Bamboo Cutting Board");
    expect(notes[0]?.message).toContain(`/orders/${delivered}/edit?from=/&amp;section=review`);
    expect(events.filter((e) => e.table === "order").length).toBeGreaterThanOrEqual(1);
    expect(h.services.notifications.list(other.userid)).toHaveLength(0);

    // The order list and dashboard see the change (the orders cache was invalidated).
    const list = await call<Order[]>(h, "GET", "/api/orders?status=Received", { token: u.token });
    expect(list.body.map((o) => o.orderid)).toEqual([delivered]);
  });

  test("several deliveries make one notification naming them", async () => {
    const u = await h.register();
    const ids = [seed(u.userid), seed(u.userid, { carrier: "FEDEX" }), seed(u.userid)];
    for (const id of ids) fake.set(numberOf(id), "delivered");
    const { body } = await updateAll(u.token);
    expect(body.deliveredOrders).toBe(3);
    const notes = h.services.notifications.list(u.userid);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.message).toContain("<strong>3 orders delivered</strong>");
  });

  test("a user without Shipped orders gets zeros and asks no carrier", async () => {
    const u = await h.register();
    seed(u.userid, { status: "Received" });
    const { status, body } = await updateAll(u.token);
    expect(status).toBe(200);
    expect(body).toEqual({
      deliveredOrders: 0,
      totalProcessed: 0,
      successfulUpdates: 0,
      message: "No shipped orders with tracking numbers to check.",
      messageParts: [{ code: "tracking.server.noShipped" }],
    });
    expect(fake.stats().calls.UPS).toBe(0);
  });

  test("two update-alls at once: the second waits for the first, nothing is looked up twice", async () => {
    const u = await h.register();
    for (let i = 0; i < 6; i++) seed(u.userid, { carrier: i % 2 ? "UPS" : "FEDEX" });
    const [a, b] = await Promise.all([updateAll(u.token), updateAll(u.token)]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.successfulUpdates).toBe(6);
    expect(fake.stats().calls.UPS + fake.stats().calls.FEDEX).toBe(6);
    // A later one runs again.
    await updateAll(u.token);
    expect(fake.stats().calls.UPS + fake.stats().calls.FEDEX).toBe(12);
  });

  test("a carrier without credentials is skipped with a clear message", async () => {
    await h.close();
    const env = { ...fake.env };
    for (const k of Object.keys(env)) if (/^(USPS|SHIP24)_/.test(k)) delete env[k];
    h = createHarness(env);
    const u = await h.register();
    const usps = seed(u.userid, { carrier: "USPS" });
    seed(u.userid, { carrier: "UPS" });
    const before = JSON.stringify(orderRow(usps));
    const { body } = await updateAll(u.token);
    expect(body).toMatchObject({ totalProcessed: 2, successfulUpdates: 1, deliveredOrders: 0 });
    expect(body.message).toBe(
      "Checked 1 shipped order: 0 delivered, 1 still on the way. Skipped 1 USPS order: USPS tracking is not set up on this server.",
    );
    expect(JSON.stringify(orderRow(usps))).toBe(before);
    expect(fake.stats().calls.USPS).toBe(0);
  });
});

describe("single-order look-ups", () => {
  for (const path of ["/api/tracking/update-order/{id}", "/api/orders/{id}/tracking/update"]) {
    const url = (id: number | string) => path.replace("{id}", String(id));

    test(`${path}: delivered makes the order Received with a notification and an event`, async () => {
      const u = await h.register();
      const id = seed(u.userid, { carrier: "FEDEX" });
      fake.set(numberOf(id), { scenario: "delivered", deliveredAt: "2026-11-21T01:30:00.000Z" });
      const events = eventsOf(u.userid);
      const { status, body } = await call<UpdateOrderTrackingResponse>(h, "POST", url(id), {
        token: u.token,
      });
      expect(status).toBe(200);
      expect(body.delivered).toBe(true);
      expect(body.warning).toBeUndefined();
      expect(body.order.status).toBe("Received");
      expect(body.order.datedelivered).toBe("2026-11-21T01:30:00.000Z");
      expect(body.order.deliverydetails).toContain("Delivered");
      expect(body.order.lastTrackingUpdate).not.toBeNull();
      expect((await call<Order>(h, "GET", `/api/orders/${id}`, { token: u.token })).body).toEqual(
        body.order,
      );
      expect(events.map((e) => e.table)).toContain("order");
      expect(events.map((e) => e.table)).toContain("notification");
      expect(h.services.notifications.list(u.userid)[0]?.message).toContain("Delivered:");
    });

    test(`${path}: in transit fills the details and the carrier's expected date`, async () => {
      const u = await h.register();
      const id = seed(u.userid, {
        carrier: "USPS",
        expected_delivery_date: "2026-12-01",
        expected_delivery_estimated: 1,
      });
      fake.set(numberOf(id), { scenario: "in-transit", expectedDelivery: "2026-11-25" });
      const { status, body } = await call<UpdateOrderTrackingResponse>(h, "POST", url(id), {
        token: u.token,
      });
      expect(status).toBe(200);
      expect(body.delivered).toBe(false);
      expect(body.order.status).toBe("Shipped");
      expect(body.order.expecteddeliverydate).toBe("2026-11-25");
      expect(body.order.expecteddeliveryestimated).toBe(false);
      expect(body.order.deliverydetails).toBeTruthy();
      expect(h.services.notifications.list(u.userid)).toHaveLength(0);
    });

    test(`${path}: another user's order, a missing one and a bad id`, async () => {
      const alice = await h.register();
      const bob = await h.register();
      const id = seed(alice.userid);
      const before = JSON.stringify(orderRow(id));
      for (const [who, target, code, error] of [
        [bob.token, id, 404, "Order not found"],
        [alice.token, 999_999, 404, "Order not found"],
        [alice.token, "abc", 400, "id must be a positive number"],
      ] as const) {
        const res = await call<ErrorBody>(h, "POST", url(target), { token: who });
        expect(res.status).toBe(code);
        expect(res.body.error).toBe(error);
      }
      expect(JSON.stringify(orderRow(id))).toBe(before);
      expect(fake.stats().calls.UPS).toBe(0);
    });
  }

  test("orders that cannot be looked up answer 409 / 422 / 503 and stay as they are", async () => {
    const u = await h.register();
    const cases: [SeedRow, number, string][] = [
      [
        { tracking_number: null, status: "Ordered" },
        409,
        "This order has no tracking number yet; add one to look it up.",
      ],
      [{ status: "Canceled" }, 409, "This order is canceled; its tracking is not looked up."],
      [
        { carrier: "AMAZON" },
        422,
        "Amazon Logistics has no public tracking: this order becomes Received from Amazon's delivery email.",
      ],
      [
        { carrier: "OTHER" },
        422,
        "This carrier cannot be looked up here (only UPS, FedEx and USPS); open the tracking link instead.",
      ],
      [
        { carrier: null },
        422,
        "The carrier of this tracking number is not known; choose UPS, FedEx or USPS to look it up.",
      ],
    ];
    for (const [o, code, error] of cases) {
      const id = seed(u.userid, o);
      const before = JSON.stringify(orderRow(id));
      const res = await updateOrder(u.token, id);
      expect(res.status).toBe(code);
      expect((res.body as unknown as ErrorBody).error).toBe(error);
      expect(JSON.stringify(orderRow(id))).toBe(before);
    }

    await h.close();
    const env = { ...fake.env };
    for (const k of Object.keys(env)) if (/^(UPS|SHIP24)_/.test(k)) delete env[k];
    h = createHarness(env);
    const v = await h.register();
    const id = seed(v.userid, { carrier: "UPS" });
    const before = JSON.stringify(orderRow(id));
    const res = await updateOrder(v.token, id);
    expect(res.status).toBe(503);
    expect((res.body as unknown as ErrorBody).error).toBe(
      "UPS tracking is not set up on this server: the administrator adds UPS_CLIENT_ID and UPS_CLIENT_SECRET (see the README).",
    );
    expect(JSON.stringify(orderRow(id))).toBe(before);
  });
});
