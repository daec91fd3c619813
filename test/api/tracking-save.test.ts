/**
 * PUT /api/orders/{id}/tracking with the carrier (docs/behaviour.md#validation, docs/messages.md):
 * the saved number is looked up at once, a slow carrier's answer lands later (or not, when the
 * number changed meanwhile), on the real harness against the local fake carrier APIs
 * (test/support/fake-carriers.ts) or an in-memory look-up. The rest of tracking is in
 * tracking.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { LiveEvent, Order, TrackingUpdateResponse } from "../../src/contract/index.ts";
import type { TrackingOutcome } from "../../src/tracking/types.ts";
import { createHarness, type Harness } from "../harness.ts";
import { fakeCarrierSuite } from "../support/carrier-suite.ts";
import type { FakeCarriers } from "../support/fake-carriers.ts";
import { memoryLookup } from "../support/tracking-fakes.ts";
import { call } from "./helpers.ts";

let fake: FakeCarriers;
let h: Harness;
fakeCarrierSuite(
  (f, next) => {
    fake = f;
    h = next;
  },
  () => h,
);

// A number whose check digits validate (carrier detection), as in orders.test.ts.
const UPS_NUMBER = "1Z879E930346834440";

const orderRow = (id: number) =>
  h.db.$client.query("SELECT * FROM orders WHERE id = ?").get(id) as Record<string, unknown>;

function eventsOf(userId: number): LiveEvent[] {
  const seen: LiveEvent[] = [];
  h.services.events.subscribe(userId, (e) => seen.push(e));
  return seen;
}

describe("PUT /api/orders/{id}/tracking with the carrier", () => {
  const create = async (token: string, body: Record<string, unknown> = {}) =>
    (
      await call<Order>(h, "POST", "/api/orders", {
        token,
        body: { productname: "Garden Hose", asin: "B0HOSE0001", ...body },
      })
    ).body;
  const put = (token: string, id: number, body: Record<string, unknown>) =>
    call<TrackingUpdateResponse>(h, "PUT", `/api/orders/${id}/tracking`, { token, body });

  test("a saved number is looked up: expected date from the carrier replaces the estimate", async () => {
    const u = await h.register();
    const o = await create(u.token, { expecteddeliverydatetext: "Arriving Friday" });
    expect(o.expecteddeliveryestimated).toBe(true);
    fake.set(UPS_NUMBER, { scenario: "in-transit", expectedDelivery: "2026-11-26" });
    const { status, body } = await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(status).toBe(200);
    expect(body.order.status).toBe("Shipped");
    expect(body.order.carrier).toBe("UPS");
    expect(body.trackingInfo).toEqual({ delivered: false, expectedDelivery: "2026-11-26" });
    expect(body.order.expecteddeliverydate).toBe("2026-11-26");
    expect(body.order.expecteddeliveryestimated).toBe(false);
    expect(body.order.lastTrackingUpdate).not.toBeNull();
    expect(body.warning).toBeUndefined();
    expect(fake.stats().calls.UPS).toBe(1);
  });

  test("delivered at once: the order is Received and trackingInfo says so", async () => {
    const u = await h.register();
    const o = await create(u.token);
    fake.set(UPS_NUMBER, "delivered");
    const { body } = await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(body.order.status).toBe("Received");
    expect(body.order.datedelivered).not.toBeNull();
    expect(body.trackingInfo).toEqual({ delivered: true, expectedDelivery: null });
    expect(h.services.notifications.list(u.userid)).toHaveLength(1);
  });

  test("a failed look-up keeps the saved number, changes nothing else, and warns", async () => {
    const u = await h.register();
    const o = await create(u.token, { expecteddeliverydate: "2026-12-02" });
    fake.set(UPS_NUMBER, "server-error");
    const { status, body } = await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(status).toBe(200);
    expect(body.order.status).toBe("Shipped");
    expect(body.order.trackingnumber).toBe(UPS_NUMBER);
    expect(body.order.lastTrackingUpdate).toBeNull();
    expect(body.order.deliverydetails).toBeNull();
    expect(body.trackingInfo).toEqual({ delivered: false, expectedDelivery: "2026-12-02" });
    expect(body.warning).toBe(
      "Could not get tracking information from UPS: the carrier's service had an error. It will be checked again at the next update.",
    );
    // The same sentence as a catalog id and values, for a reader in another language.
    expect(body.warningCode).toBe("tracking.server.failed");
    expect(body.warningValues).toEqual({ carrier: "UPS", reason: "serverError" });
  });

  test("Amazon Logistics and Other are saved without a look-up or a warning", async () => {
    const u = await h.register();
    const o = await create(u.token);
    for (const carrier of ["AMAZON", "OTHER"] as const) {
      const { body } = await put(u.token, o.orderid, {
        trackingnumber: "TBA987654321000",
        carrier,
      });
      expect(body.order.carrier).toBe(carrier);
      expect(body.warning).toBeUndefined();
    }
    const s = fake.stats().calls;
    expect(s.UPS + s.FEDEX + s.USPS + s.SHIP24).toBe(0);
  });

  /**
   * A harness whose carrier answers UPS_NUMBER only when told to; saves wait 50 ms for it.
   * `settled()` resolves once the service has dealt with every answer given so far: it waits on
   * the very promises the service was handed, and reactions to a promise run in the order they
   * were added, so the service's own (apply the answer, or set it aside) has run by then.
   */
  async function slowCarrier() {
    await h.close();
    const lookup = memoryLookup(() => new Date());
    let resolve: ((o: TrackingOutcome) => void) | undefined;
    lookup.answers.set(UPS_NUMBER, () => new Promise((r) => (resolve = r)));
    const handed: Promise<TrackingOutcome>[] = [];
    const track = lookup.track.bind(lookup);
    lookup.track = (carrier, number) => {
      const answer = track(carrier, number);
      handed.push(answer);
      return answer;
    };
    h = createHarness({}, { tracking: { lookup, saveWaitMs: 50 } });
    return {
      answer: (o: TrackingOutcome) => resolve?.(o),
      settled: () => Promise.all(handed),
    };
  }
  const deliveredAnswer = (status: string): TrackingOutcome => ({
    ok: true,
    result: { delivered: true, deliveredAt: null, expectedDelivery: null, status, events: [] },
  });

  test("a carrier slower than the save's wait: saved at once with a warning, its answer lands later", async () => {
    const carrier = await slowCarrier();
    const u = await h.register();
    const o = await create(u.token);
    const seen = eventsOf(u.userid);
    const { status, body } = await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(status).toBe(200);
    expect(body.order.trackingnumber).toBe(UPS_NUMBER);
    expect(body.order.status).toBe("Shipped");
    expect(body.warning).toBe(
      "UPS has not answered yet; this order is updated as soon as it does.",
    );
    expect(body.warningCode).toBe("tracking.server.notYet");
    expect(body.warningValues).toEqual({ carrier: "UPS" });
    expect(orderRow(o.orderid).last_tracking_update).toBeNull();
    const eventsBefore = seen.length;
    carrier.answer(deliveredAnswer("Delivered, front door"));
    await carrier.settled();
    expect(orderRow(o.orderid).status).toBe("Received");
    expect(orderRow(o.orderid).delivery_details).toBe("Delivered, front door");
    expect(seen.slice(eventsBefore).some((e) => e.table === "order")).toBe(true);
    expect(h.services.notifications.list(u.userid)).toHaveLength(1);
  });

  test("a late answer for a number changed in the meantime is not applied", async () => {
    const carrier = await slowCarrier();
    const u = await h.register();
    const o = await create(u.token);
    await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    const other = await put(u.token, o.orderid, {
      trackingnumber: "TBA987654321000",
      carrier: "AMAZON",
    });
    expect(other.status).toBe(200);
    carrier.answer(deliveredAnswer("Delivered"));
    // The same point at which the test above sees its answer applied.
    await carrier.settled();
    expect(orderRow(o.orderid).status).toBe("Shipped");
    expect(orderRow(o.orderid).tracking_number).toBe("TBA987654321000");
    expect(h.services.notifications.list(u.userid)).toHaveLength(0);
  });

  test("an answer without an expected date warns that the information is incomplete", async () => {
    await h.close();
    const lookup = memoryLookup(() => new Date());
    h = createHarness({}, { tracking: { lookup } });
    const u = await h.register();
    const o = await create(u.token);
    const { body } = await put(u.token, o.orderid, { trackingnumber: UPS_NUMBER });
    expect(lookup.calls).toHaveLength(1);
    expect(body.order.deliverydetails).toBe("In transit");
    expect(body.trackingInfo).toEqual({ delivered: false, expectedDelivery: null });
    expect(body.warning).toBe("UPS has not given an expected delivery date for this parcel yet.");
    expect(body.warningCode).toBe("tracking.server.noDate");
  });
});
