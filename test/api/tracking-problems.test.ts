/**
 * The "Tracking problem" notification and alert: the update-all (the daily check and
 * "Update tracking") tells the user once per order and problem when a carrier reports an
 * exception, or does not know a number at NOT_FOUND_CHECKS checks in a row; on the real harness
 * against the local fake carrier APIs (test/support/fake-carriers.ts), each in its own shape.
 */
import { describe, expect, test } from "bun:test";
import type { Notification, UpdateAllTrackingResponse } from "../../src/contract/index.ts";
import { NOT_FOUND_CHECKS } from "../../src/features/tracking/tracking.service.ts";
import { createHarness, type Harness } from "../harness.ts";
import { fakeCarrierSuite } from "../support/carrier-suite.ts";
import type { FakeCarriers } from "../support/fake-carriers.ts";
import { seedOrder } from "../support/seed-orders.ts";
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

let seq = 0;
/** A Shipped order with a tracking number, straight into SQLite. */
function seed(hh: Harness, userId: number, carrier: string): { id: number; number: string } {
  seq++;
  const number = `PROBNUM${String(seq).padStart(8, "0")}`;
  const id = seedOrder(hh.db, userId, {
    product_name: `Garden Hose ${seq}`,
    asin: `B0PROB${String(seq).padStart(4, "0")}`,
    status: "Shipped",
    tracking_number: number,
    carrier,
    created_at: "2026-11-01T10:00:00.000Z",
  });
  return { id, number };
}

const updateAll = (hh: Harness, token: string) =>
  call<UpdateAllTrackingResponse>(hh, "POST", "/api/tracking/update-all", { token });
const problemsOf = (hh: Harness, userId: number): Notification[] =>
  hh.services.notifications.list(userId).filter((n) => n.level === "warning");
const outbox = (hh: Harness) =>
  hh.db.$client
    .query("SELECT event, order_json FROM alert_outbox WHERE event = 'tracking_problem'")
    .all() as { event: string; order_json: string }[];

describe("tracking problems", () => {
  test("an exception from UPS, FedEx and USPS: one warning each naming the order, an alert with the order; told once", async () => {
    await h.register(); // user 1: the admin
    const u = await h.register();
    // A channel that chose tracking problems (nothing is sent here: the outbox shows the alert).
    const ch = await h.req("POST", "/api/user/alert-channels", {
      token: u.token,
      body: {
        type: "webhook",
        // TEST-NET-1 (never routed); loopback would need ALERTS_ALLOW_LOOPBACK.
        url: "http://192.0.2.1:9/hook",
        format: "json",
        events: ["tracking_problem"],
      },
    });
    expect(ch.status).toBe(201);
    const ups = seed(h, u.userid, "UPS");
    const fedex = seed(h, u.userid, "FEDEX");
    const usps = seed(h, u.userid, "USPS");
    const fine = seed(h, u.userid, "UPS");
    for (const o of [ups, fedex, usps]) {
      fake.set(o.number, { scenario: "exception", status: "Damaged - returning to sender soon" });
    }

    const first = await updateAll(h, u.token);
    expect(first.status).toBe(200);
    // The summary (the "Update tracking" toast) does not call them on the way.
    expect(first.body.message).toBe(
      "Checked 4 shipped orders: 0 delivered, 1 still on the way, 3 with a problem the carrier reported.",
    );
    const notes = problemsOf(h, u.userid);
    expect(notes).toHaveLength(3);
    for (const o of [ups, fedex, usps]) {
      const n = notes.find((x) => x.message.includes(`/orders/${o.id}/edit`));
      expect(n?.message).toContain("reports a problem with <strong>Garden Hose");
      expect(n?.message).toMatch(/Damaged - returning to sender soon/i);
    }
    expect(notes.some((n) => n.message.includes(`/orders/${fine.id}/`))).toBe(false);
    // The order stays Shipped; its details say what the carrier said (not "In transit").
    const details = h.db.$client
      .query("SELECT status, delivery_details AS d FROM orders WHERE id = ?")
      .get(ups.id) as { status: string; d: string };
    expect(details.status).toBe("Shipped");
    expect(details.d).toMatch(/^Damaged - returning to sender soon/i);
    expect(outbox(h)).toHaveLength(3);
    expect(outbox(h).map((r) => JSON.parse(r.order_json).product)).toContain(
      `Garden Hose ${seq - 3}`,
    );

    // The next checks see the same problem: nobody is told again.
    await updateAll(h, u.token);
    await updateAll(h, u.token);
    expect(problemsOf(h, u.userid)).toHaveLength(3);

    // UPS's parcel moves on, then has trouble again: that is news.
    fake.set(ups.number, "in-transit");
    await updateAll(h, u.token);
    expect(problemsOf(h, u.userid)).toHaveLength(3);
    fake.set(ups.number, { scenario: "exception", status: "Address not found" });
    await updateAll(h, u.token);
    const after = problemsOf(h, u.userid);
    expect(after).toHaveLength(4);
    expect(after[0]!.message).toContain("Address not found");
    expect(after[0]!.message).toContain(`/orders/${ups.id}/edit`);
  });

  test("Ship24 (the aggregator) reports an exception the same way", async () => {
    const env: Record<string, string> = { ...fake.env };
    for (const k of Object.keys(env)) if (/^(UPS|FEDEX|USPS)_/.test(k)) delete env[k];
    const hs = createHarness(env);
    try {
      const u = await hs.register();
      const o = seed(hs, u.userid, "UPS");
      fake.set(o.number, { scenario: "exception", status: "Delivery attempted, recipient absent" });
      await updateAll(hs, u.token);
      const notes = problemsOf(hs, u.userid);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.message).toContain("Delivery attempted, recipient absent");
      expect(fake.stats().calls.SHIP24).toBe(1);
    } finally {
      await hs.close();
    }
  });

  test(`a number the carrier does not know at ${NOT_FOUND_CHECKS} checks in a row: told once; a count broken by an answer starts again`, async () => {
    const u = await h.register();
    const o = seed(h, u.userid, "FEDEX");
    const late = seed(h, u.userid, "FEDEX");
    fake.set(o.number, "not-found");
    fake.set(late.number, "not-found");
    const about = (n: string) => problemsOf(h, u.userid).filter((x) => x.message.includes(n));
    for (let i = 1; i < NOT_FOUND_CHECKS; i++) await updateAll(h, u.token);
    expect(problemsOf(h, u.userid)).toHaveLength(0);

    // The next check is o's third: told. `late` shows up at FedEx meanwhile: its count restarts.
    fake.set(late.number, "in-transit");
    await updateAll(h, u.token);
    fake.set(late.number, "not-found");
    expect(problemsOf(h, u.userid)).toHaveLength(1);
    const [n] = about(o.number);
    expect(n!.message).toContain(
      `FedEx still does not know tracking number ${o.number} of <strong>Garden Hose`,
    );
    expect(n!.message).toContain(`/orders/${o.id}/edit`);
    // A not-found answer changes nothing on the order.
    const row = h.db.$client.query("SELECT status FROM orders WHERE id = ?").get(o.id) as {
      status: string;
    };
    expect(row.status).toBe("Shipped");

    // Later checks: o is not told again; `late` only at its own third check in a row.
    for (let i = 1; i < NOT_FOUND_CHECKS; i++) await updateAll(h, u.token);
    expect(about(o.number)).toHaveLength(1);
    expect(about(late.number)).toHaveLength(0);
    await updateAll(h, u.token);
    expect(about(late.number)).toHaveLength(1);
    expect(about(o.number)).toHaveLength(1);

    // A new number on the order starts afresh.
    const renumbered = `${o.number}9`;
    h.db.$client.query("UPDATE orders SET tracking_number = ? WHERE id = ?").run(renumbered, o.id);
    fake.set(renumbered, "not-found");
    for (let i = 1; i < NOT_FOUND_CHECKS; i++) await updateAll(h, u.token);
    expect(about(renumbered)).toHaveLength(0);
    await updateAll(h, u.token);
    expect(about(renumbered)).toHaveLength(1);
  });
});
