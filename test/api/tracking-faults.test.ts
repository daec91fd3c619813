/**
 * Carrier faults: a carrier that times out, answers 5xx or 429, sends a body we
 * cannot read, does not know the number or refuses our credentials changes nothing on the order,
 * is logged once (not once per order), is counted in the update-all summary, answers a single
 * look-up with a clear 4xx/5xx (never 500), and is tried again at the next run.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import pino from "pino";
import type {
  UpdateAllTrackingResponse,
  UpdateOrderTrackingResponse,
} from "../../src/contract/index.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type FakeCarriers, type Scenario, startFakeCarriers } from "../support/fake-carriers.ts";
import { seedOrder } from "../support/seed-orders.ts";
import { call, type ErrorBody } from "./helpers.ts";

let fake: FakeCarriers;
let h: Harness;
let logLines: { msg: string; level: number; [k: string]: unknown }[];
beforeAll(() => {
  fake = startFakeCarriers();
});
afterAll(() => fake.stop());

function harness() {
  fake.reset();
  logLines = [];
  const log = pino({ level: "info" }, { write: (s: string) => void logLines.push(JSON.parse(s)) });
  // A carrier timeout short enough for the test, long enough for a busy machine ("slow" answers after 30 s).
  h = createHarness({ ...fake.env, TRACKING_TIMEOUT_MS: "2000" }, { tracking: { log } });
}
afterEach(async () => {
  await h.close();
});

let seq = 0;
function seed(userId: number, carrier = "UPS"): number {
  seq++;
  return seedOrder(h.db, userId, {
    product_name: `Ceramic Mug ${seq}`,
    asin: "B0FAULT001",
    status: "Shipped",
    tracking_number: `FAULT${String(seq).padStart(10, "0")}`,
    carrier,
    expected_delivery_date: "2026-12-01",
    expected_delivery_estimated: 1,
    created_at: "2026-11-01T10:00:00.000Z",
  });
}
const row = (id: number) =>
  JSON.stringify(h.db.$client.query("SELECT * FROM orders WHERE id = ?").get(id));
const numberOf = (id: number) =>
  (
    h.db.$client.query("SELECT tracking_number AS n FROM orders WHERE id = ?").get(id) as {
      n: string;
    }
  ).n;
const failureLines = () => logLines.filter((l) => l.msg.startsWith("tracking look-up"));

const FAULTS: { scenario: Scenario; summary: string; status: number; error: RegExp }[] = [
  { scenario: "slow", summary: "1 timed out", status: 504, error: /^UPS did not answer in time/ },
  {
    scenario: "server-error",
    summary: "1 failed with a UPS service error",
    status: 502,
    error: /^UPS tracking is not answering right now/,
  },
  {
    scenario: "rate-limited",
    summary: "1 over UPS's look-up limit",
    status: 429,
    error: /^UPS look-ups are limited for now; try again in/,
  },
  {
    scenario: "malformed",
    summary: "1 with an answer that could not be read",
    status: 502,
    error: /^UPS sent an answer that could not be read/,
  },
  {
    scenario: "unexpected",
    summary: "1 with an answer that could not be read",
    status: 502,
    error: /^UPS sent an answer that could not be read/,
  },
  {
    scenario: "not-found",
    summary: "1 not known to UPS yet",
    status: 422,
    error: /^UPS does not know tracking number FAULT\d+ yet/,
  },
  {
    scenario: "unauthorized",
    summary: "1 refused: UPS rejected this server's credentials",
    status: 502,
    error: /^UPS refused this server's credentials; the administrator should check UPS_CLIENT_ID/,
  },
];

describe.each(FAULTS)("a carrier answering $scenario", ({ scenario, summary, status, error }) => {
  test("update-all counts it and leaves the order as it was; a later run retries it", async () => {
    harness();
    const u = await h.register();
    const id = seed(u.userid);
    fake.set(numberOf(id), scenario);
    const before = row(id);

    const res = await call<UpdateAllTrackingResponse>(h, "POST", "/api/tracking/update-all", {
      token: u.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deliveredOrders: 0,
      totalProcessed: 1,
      successfulUpdates: 0,
      message: `Checked 1 shipped order: 0 delivered, 0 still on the way. Could not check 1 UPS order (${summary}). They will be tried again at the next update.`,
      messageParts: expect.arrayContaining([
        expect.objectContaining({
          code: "tracking.server.couldNotCheck",
          values: expect.objectContaining({ count: 1, carrier: "UPS" }),
        }),
        { code: "tracking.server.triedAgain" },
      ]),
    });
    expect(row(id)).toBe(before);
    expect(h.services.notifications.list(u.userid)).toHaveLength(0);
    expect(failureLines()).toHaveLength(1);

    if (scenario === "rate-limited") return; // the carrier asked us to wait: the retry is later
    fake.set(numberOf(id), "delivered");
    const again = await call<UpdateAllTrackingResponse>(h, "POST", "/api/tracking/update-all", {
      token: u.token,
    });
    expect(again.body).toMatchObject({ deliveredOrders: 1, successfulUpdates: 1 });
  });

  test(`a single look-up answers ${status} and changes nothing`, async () => {
    harness();
    const u = await h.register();
    const id = seed(u.userid);
    fake.set(numberOf(id), scenario);
    const before = row(id);
    for (const url of [`/api/tracking/update-order/${id}`, `/api/orders/${id}/tracking/update`]) {
      const res = await call<ErrorBody>(h, "POST", url, { token: u.token });
      expect(res.status).toBe(status);
      expect(res.body.error).toMatch(error);
      if (status === 429) expect(Number(res.res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(row(id)).toBe(before);
    }
  });
});

describe("no storm", () => {
  test("many failing orders: one log line, and a failing carrier is left alone for the run", async () => {
    harness();
    const u = await h.register();
    const ids = Array.from({ length: 20 }, () => seed(u.userid));
    for (const id of ids) fake.set(numberOf(id), "server-error");
    const fedex = seed(u.userid, "FEDEX"); // another carrier carries on
    const before = ids.map(row);

    const res = await call<UpdateAllTrackingResponse>(h, "POST", "/api/tracking/update-all", {
      token: u.token,
    });
    expect(res.body).toMatchObject({ totalProcessed: 21, successfulUpdates: 1 });
    expect(res.body.message).toContain(
      "Could not check 20 UPS orders (20 failed with a UPS service error). They will be tried again at the next update.",
    );
    expect(ids.map(row)).toEqual(before);
    expect(failureLines()).toHaveLength(1);
    expect(failureLines()[0]).toMatchObject({ carrier: "UPS", reason: "server-error", orders: 20 });
    // After a few failures in a row the rest of UPS is not asked in this run.
    expect(fake.stats().calls.UPS).toBeLessThan(10);
    expect(fake.stats().calls.FEDEX).toBe(1);
    expect(JSON.parse(row(fedex)).last_tracking_update).not.toBeNull();
  });

  test("a spent quota stops asking that carrier for the rest of the run", async () => {
    harness();
    const u = await h.register();
    const ids = Array.from({ length: 12 }, () => seed(u.userid, "USPS"));
    fake.set(numberOf(ids[0] as number), "rate-limited");
    const res = await call<UpdateAllTrackingResponse>(h, "POST", "/api/tracking/update-all", {
      token: u.token,
    });
    expect(res.body.totalProcessed).toBe(12);
    expect(res.body.successfulUpdates + 1).toBeLessThanOrEqual(12);
    expect(res.body.message).toMatch(
      /Could not check \d+ USPS orders? \(\d+ over USPS's look-up limit\)/,
    );
    // The 429 paused USPS: far fewer calls than orders.
    expect(fake.stats().calls.USPS).toBeLessThan(12);
  });
});

test("update-order for a delivered answer still works after a failed one (no state kept)", async () => {
  harness();
  const u = await h.register();
  const id = seed(u.userid, "FEDEX");
  fake.set(numberOf(id), "server-error");
  expect(
    (await call(h, "POST", `/api/tracking/update-order/${id}`, { token: u.token })).status,
  ).toBe(502);
  fake.set(numberOf(id), "delivered");
  const ok = await call<UpdateOrderTrackingResponse>(
    h,
    "POST",
    `/api/tracking/update-order/${id}`,
    {
      token: u.token,
    },
  );
  expect(ok.status).toBe(200);
  expect(ok.body.delivered).toBe(true);
  expect(ok.body.order.status).toBe("Received");
});
