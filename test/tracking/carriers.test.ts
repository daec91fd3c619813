/**
 * Carrier look-ups (src/tracking) against the fake carrier servers (test/support/fake-carriers.ts)
 * over real HTTP: every adapter in every scenario, OAuth token caching and renewal with a
 * controlled clock, calls in flight per carrier, the USPS hourly quota, 429 Retry-After, carriers
 * without keys, and that no credential reaches a message or the log.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import pino from "pino";
import { loadConfig } from "../../src/config.ts";
import type { Carrier } from "../../src/contract/constants.ts";
import { parseFedex } from "../../src/tracking/carriers/fedex.ts";
import { parseShip24 } from "../../src/tracking/carriers/ship24.ts";
import { parseUps } from "../../src/tracking/carriers/ups.ts";
import { parseUsps } from "../../src/tracking/carriers/usps.ts";
import { createCarrierLookup } from "../../src/tracking/lookup.ts";
import type { TrackingOutcome } from "../../src/tracking/types.ts";
import {
  FAKE_CREDENTIALS,
  type FakeCarrier,
  type Scenario,
  startFakeCarriers,
} from "../support/fake-carriers.ts";

const fake = startFakeCarriers({ slowMs: 20_000 });
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

/** A logger whose lines are kept, to check what was logged. */
function capture() {
  const lines: string[] = [];
  const log = pino({ level: "debug" }, { write: (s: string) => void lines.push(s) });
  return { log, lines, text: () => lines.join("") };
}

function clock(start = Date.parse("2025-07-14T12:00:00Z")) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

function lookupWith(env: Record<string, string>, opts: { now?: () => number } = {}) {
  const cap = capture();
  const config = loadConfig({ DATA_DIR: "/tmp/grapevine-carrier-test", ...env });
  const lookup = createCarrierLookup(config.carriers, { log: cap.log, now: opts.now });
  return { lookup, ...cap };
}

const ship24Only = () => ({
  SHIP24_API_KEY: fake.env.SHIP24_API_KEY as string,
  SHIP24_BASE_URL: fake.env.SHIP24_BASE_URL as string,
});

/** Each way a carrier is reached: its own API, or Ship24 for it. */
const ROUTES: {
  name: string;
  carrier: Carrier;
  fakeId: FakeCarrier;
  env: () => Record<string, string>;
}[] = [
  { name: "UPS", carrier: "UPS", fakeId: "UPS", env: () => fake.env },
  { name: "FedEx", carrier: "FEDEX", fakeId: "FEDEX", env: () => fake.env },
  { name: "USPS", carrier: "USPS", fakeId: "USPS", env: () => fake.env },
  { name: "Ship24 (for USPS)", carrier: "USPS", fakeId: "SHIP24", env: ship24Only },
];

const NUMBER = "1Z999AA10123456784";

function failure(o: TrackingOutcome) {
  if (o.ok) throw new Error(`expected a failure, got ${JSON.stringify(o.result)}`);
  return o;
}
function success(o: TrackingOutcome) {
  if (!o.ok) throw new Error(`expected a result, got ${o.reason}: ${o.message}`);
  return o.result;
}

describe.each(ROUTES)("$name", ({ carrier, fakeId, env }) => {
  let l: ReturnType<typeof lookupWith>;
  beforeEach(() => {
    l = lookupWith({ ...env(), TRACKING_TIMEOUT_MS: "400" });
  });
  const track = (n = NUMBER) => l.lookup.track(carrier, n);

  test("in transit: not delivered, the carrier's expected date, status and events", async () => {
    fake.set(NUMBER, { scenario: "in-transit", expectedDelivery: "2025-07-18" });
    const r = success(await track());
    expect(r.delivered).toBe(false);
    expect(r.deliveredAt).toBeNull();
    expect(r.expectedDelivery).toBe("2025-07-18");
    expect(r.status).toMatch(/^In transit: Arrived at facility/);
    expect(r.status).toContain("AUSTIN");
    expect(r.events.length).toBeGreaterThan(1);
    expect(r.events.length).toBeLessThanOrEqual(10);
    expect(r.events[0]?.description).toBe("Arrived at facility");
    // latest first
    const times = r.events.map((e) => Date.parse(e.time ?? ""));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(fake.stats().calls[fakeId]).toBe(1);
  });

  test("delivered: delivered with the delivery time", async () => {
    fake.set(NUMBER, { scenario: "delivered", deliveredAt: "2025-07-10T18:30:00Z" });
    const r = success(await track(NUMBER.toLowerCase()));
    expect(r.delivered).toBe(true);
    expect(Date.parse(r.deliveredAt ?? "")).toBe(Date.parse("2025-07-10T18:30:00Z"));
    expect(r.expectedDelivery).toBeNull();
    expect(r.status).toMatch(/^Delivered/);
    expect(r.events[0]?.description).toMatch(/^Delivered/);
  });

  test("unknown number: not-found", async () => {
    fake.set(NUMBER, "not-found");
    expect(failure(await track()).reason).toBe("not-found");
  });

  const simple: [Scenario, string][] = [
    ["server-error", "server-error"],
    ["malformed", "unreadable"],
    ["unexpected", "unreadable"],
    ["slow", "timeout"],
  ];
  test.each(simple)("%s → %s", async (scenario, reason) => {
    fake.set(NUMBER, scenario);
    const f = failure(await track());
    expect(f.reason as string).toBe(reason);
    expect(f.message).not.toBe("");
    if (scenario === "slow") expect(f.message).toMatch(/did not answer within 0\.4 s/);
  });

  test("a 401 on every call: renewed once, then auth-failed", async () => {
    fake.set(NUMBER, "unauthorized");
    const f = failure(await track());
    expect(f.reason).toBe("auth-failed");
    // Ship24 has no token to renew: one call. The others: the call, a new token, the call again.
    expect(fake.stats().calls[fakeId]).toBe(fakeId === "SHIP24" ? 1 : 2);
    expect(fake.stats().tokenRequests[fakeId]).toBe(fakeId === "SHIP24" ? 0 : 2);
  });

  test("429: rate-limited with Retry-After; the carrier is not called again before then", async () => {
    fake.set(NUMBER, { scenario: "rate-limited", retryAfterSeconds: 120 });
    const f = failure(await track());
    expect(f.reason).toBe("rate-limited");
    expect(f.retryAfterMs).toBe(120_000);
    const again = failure(await track("1Z999AA10123456700"));
    expect(again.reason).toBe("rate-limited");
    expect(again.retryAfterMs).toBeGreaterThan(110_000);
    expect(fake.stats().calls[fakeId]).toBe(1);
  });
});

describe("Retry-After with a controlled clock", () => {
  test("calls resume once the carrier's wait is over", async () => {
    const c = clock();
    const { lookup } = lookupWith(fake.env, { now: c.now });
    fake.set("RL1", { scenario: "rate-limited", retryAfterSeconds: 30 });
    expect(failure(await lookup.track("FEDEX", "RL1")).retryAfterMs).toBe(30_000);
    c.advance(29_000);
    expect(failure(await lookup.track("FEDEX", "OK1")).retryAfterMs).toBe(1000);
    expect(fake.stats().calls.FEDEX).toBe(1);
    c.advance(1000);
    expect((await lookup.track("FEDEX", "OK1")).ok).toBe(true);
    expect(fake.stats().calls.FEDEX).toBe(2);
    // Other carriers never waited.
    expect((await lookup.track("UPS", "OK1")).ok).toBe(true);
  });
});

describe("OAuth tokens", () => {
  test("one token serves many calls, also when they start together", async () => {
    const { lookup } = lookupWith(fake.env);
    const outs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => lookup.track("UPS", `N${i}`)),
    );
    expect(outs.every((o) => o.ok)).toBe(true);
    for (let i = 0; i < 3; i++) expect((await lookup.track("UPS", `M${i}`)).ok).toBe(true);
    expect(fake.stats().tokenRequests.UPS).toBe(1);
    expect(fake.stats().calls.UPS).toBe(11);
  });

  test("renewed about a minute before it expires (by the clock)", async () => {
    const c = clock();
    fake.setTokenTtl(3600);
    try {
      const { lookup } = lookupWith(fake.env, { now: c.now });
      expect((await lookup.track("FEDEX", "A")).ok).toBe(true);
      c.advance(3600_000 - 61_000);
      expect((await lookup.track("FEDEX", "B")).ok).toBe(true);
      expect(fake.stats().tokenRequests.FEDEX).toBe(1);
      c.advance(2000); // 59 s left: renew now
      expect((await lookup.track("FEDEX", "C")).ok).toBe(true);
      expect(fake.stats().tokenRequests.FEDEX).toBe(2);
      expect((await lookup.track("FEDEX", "D")).ok).toBe(true);
      expect(fake.stats().tokenRequests.FEDEX).toBe(2);
    } finally {
      fake.setTokenTtl(null);
    }
  });

  test("a token the carrier no longer accepts is renewed once and the call succeeds", async () => {
    const { lookup } = lookupWith(fake.env);
    expect((await lookup.track("USPS", "A")).ok).toBe(true);
    fake.expireTokens();
    const r = success(await lookup.track("USPS", "B"));
    expect(r.delivered).toBe(false);
    expect(fake.stats().tokenRequests.USPS).toBe(2);
    expect(fake.requests().map((q) => `${q.kind}:${q.status}`)).toEqual([
      "token:200",
      "track:200",
      "track:401",
      "token:200",
      "track:200",
    ]);
  });

  test("refused credentials: auth-failed naming the variables, not asked again for every order", async () => {
    const c = clock();
    const { lookup, text } = lookupWith(
      { ...fake.env, UPS_CLIENT_SECRET: "wrong-secret-123" },
      { now: c.now },
    );
    const f = failure(await lookup.track("UPS", "A"));
    expect(f.reason).toBe("auth-failed");
    expect(f.message).toContain("UPS_CLIENT_SECRET");
    expect(f.message).not.toContain("wrong-secret-123");
    for (let i = 0; i < 20; i++)
      expect(failure(await lookup.track("UPS", `B${i}`)).reason).toBe("auth-failed");
    expect(fake.stats().tokenRequests.UPS).toBe(1);
    expect(fake.stats().calls.UPS).toBe(0);
    // One warning; per-call lines are debug only.
    const warnings = text()
      .split("\n")
      .filter((s) => s.includes('"level":40'));
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain("refused our client credentials");
    c.advance(16 * 60_000);
    await lookup.track("UPS", "C");
    expect(fake.stats().tokenRequests.UPS).toBe(2);
  });
});

describe("limits", () => {
  test("at most 4 calls in flight per carrier; carriers do not wait for each other", async () => {
    const slow = startFakeCarriers({ latencyMs: 40 });
    try {
      const config = loadConfig({ DATA_DIR: "/tmp/grapevine-carrier-test", ...slow.env });
      const lookup = createCarrierLookup(config.carriers, { log: capture().log });
      const jobs: Promise<TrackingOutcome>[] = [];
      for (let i = 0; i < 24; i++) {
        jobs.push(lookup.track("UPS", `U${i}`), lookup.track("FEDEX", `F${i}`));
      }
      const outs = await Promise.all(jobs);
      expect(outs.every((o) => o.ok)).toBe(true);
      const s = slow.stats();
      expect(s.calls.UPS).toBe(24);
      expect(s.maxInFlight.UPS).toBe(4);
      expect(s.maxInFlight.FEDEX).toBe(4);
      expect(s.tokenRequests.UPS).toBe(1);
    } finally {
      slow.stop();
    }
  });

  test("USPS hourly quota: spent → rate-limited without a call, until the hour has passed", async () => {
    const c = clock();
    const { lookup } = lookupWith({ ...fake.env, USPS_HOURLY_LIMIT: "3" }, { now: c.now });
    for (let i = 0; i < 3; i++) {
      expect((await lookup.track("USPS", `Q${i}`)).ok).toBe(true);
      c.advance(60_000);
    }
    const f = failure(await lookup.track("USPS", "Q3"));
    expect(f.reason).toBe("rate-limited");
    expect(f.message).toContain("hourly quota (3 look-ups)");
    expect(f.retryAfterMs).toBe(3600_000 - 3 * 60_000);
    expect(fake.stats().calls.USPS).toBe(3);
    // Other carriers have no hourly quota.
    for (let i = 0; i < 5; i++) expect((await lookup.track("UPS", `Q${i}`)).ok).toBe(true);
    c.advance(f.retryAfterMs as number);
    expect((await lookup.track("USPS", "Q3")).ok).toBe(true);
    expect(failure(await lookup.track("USPS", "Q4")).reason).toBe("rate-limited");
    expect(fake.stats().calls.USPS).toBe(4);
  });

  test("quota counts concurrent calls too", async () => {
    const { lookup } = lookupWith({ ...fake.env, USPS_HOURLY_LIMIT: "5" });
    const outs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => lookup.track("USPS", `C${i}`)),
    );
    expect(outs.filter((o) => o.ok).length).toBe(5);
    expect(outs.filter((o) => !o.ok && o.reason === "rate-limited").length).toBe(7);
    expect(fake.stats().calls.USPS).toBe(5);
  });
});

describe("carriers without keys, and carriers without an API", () => {
  test("no keys at all: not-configured with the variables to set, logged once", async () => {
    const { lookup, lines } = lookupWith({});
    expect(lookup.supported()).toEqual([]);
    for (let i = 0; i < 50; i++) {
      const f = failure(await lookup.track("UPS", `1Z${i}`));
      expect(f.reason).toBe("not-configured");
      expect(f.message).toBe(
        "UPS look-ups need UPS_CLIENT_ID and UPS_CLIENT_SECRET, or SHIP24_API_KEY (see docs/CARRIERS.md)",
      );
    }
    expect(failure(await lookup.track("FEDEX", "F1")).message).toContain("FEDEX_CLIENT_ID");
    expect(lines.filter((s) => s.includes("look-ups need")).length).toBe(2);
    expect(lines.some((s) => /"level":(50|60)/.test(s))).toBe(false);
  });

  test("own keys for some carriers, Ship24 for the rest", async () => {
    const upsOnly = lookupWith({
      UPS_CLIENT_ID: FAKE_CREDENTIALS.UPS.id,
      UPS_CLIENT_SECRET: FAKE_CREDENTIALS.UPS.secret,
      UPS_BASE_URL: fake.env.UPS_BASE_URL as string,
    }).lookup;
    expect(upsOnly.supported()).toEqual(["UPS"]);
    expect(failure(await upsOnly.track("USPS", "9400")).reason).toBe("not-configured");

    const both = lookupWith({
      UPS_CLIENT_ID: FAKE_CREDENTIALS.UPS.id,
      UPS_CLIENT_SECRET: FAKE_CREDENTIALS.UPS.secret,
      UPS_BASE_URL: fake.env.UPS_BASE_URL as string,
      ...ship24Only(),
    }).lookup;
    expect(both.supported()).toEqual(["UPS", "FEDEX", "USPS"]);
    expect((await both.track("UPS", "A")).ok).toBe(true);
    expect((await both.track("FEDEX", "B")).ok).toBe(true);
    expect(fake.stats().calls).toEqual({ UPS: 1, FEDEX: 0, USPS: 0, SHIP24: 1 });
  });

  test("Amazon Logistics, OTHER and no carrier: unsupported, nothing called", async () => {
    const { lookup } = lookupWith(fake.env);
    const amazon = failure(await lookup.track("AMAZON", "TBA123456789012"));
    expect(amazon.reason).toBe("unsupported");
    expect(amazon.message).toContain("Amazon Logistics has no public tracking API");
    expect(amazon.message).toContain("Amazon's delivery mail");
    expect(failure(await lookup.track("OTHER", "X1")).reason).toBe("unsupported");
    expect(failure(await lookup.track(null, "X1")).reason).toBe("unsupported");
    expect(fake.requests()).toEqual([]);
  });

  test("a carrier that cannot be reached: server-error", async () => {
    const gone = startFakeCarriers();
    const env = { ...gone.env };
    gone.stop();
    const { lookup } = lookupWith(env);
    const f = failure(await lookup.track("UPS", "A"));
    expect(f.reason).toBe("server-error");
    expect(f.message).toMatch(/^Could not reach UPS/);
  });
});

test("no credential or token in any message or log line", async () => {
  const { lookup, text } = lookupWith({ ...fake.env, TRACKING_TIMEOUT_MS: "300" });
  const bad = lookupWith({
    ...fake.env,
    FEDEX_CLIENT_SECRET: "bad-fedex-secret",
    USPS_CLIENT_SECRET: "bad-usps-secret",
  });
  const messages: string[] = [];
  const scenarios: Scenario[] = [
    "delivered",
    "not-found",
    "unauthorized",
    "rate-limited",
    "server-error",
    "slow",
    "malformed",
  ];
  for (const s of scenarios) {
    fake.set(`S-${s}`, s);
    for (const c of ["UPS", "FEDEX", "USPS"] as const) {
      for (const l of [lookup, bad.lookup]) {
        const o = await l.track(c, `S-${s}`);
        if (!o.ok) messages.push(o.message);
      }
    }
  }
  const all = messages.join("\n") + text() + bad.text();
  const secrets = [
    FAKE_CREDENTIALS.UPS.secret,
    FAKE_CREDENTIALS.FEDEX.secret,
    FAKE_CREDENTIALS.USPS.secret,
    FAKE_CREDENTIALS.SHIP24.key,
    "bad-fedex-secret",
    "bad-usps-secret",
  ];
  for (const s of secrets) expect(all).not.toContain(s);
  expect(all).not.toMatch(/Bearer|Basic |fake-(ups|fedex|usps)-[A-Za-z0-9_-]{20,}/);
  expect(messages.length).toBeGreaterThan(20);
});

describe("the fake's HTTP control route (for other processes)", () => {
  test("POST /__fake/scenario drives answers; bad input is a 400; stats and reset", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${fake.baseUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await post("/__fake/scenario", {
      number: "9400 1000 0000 0000 0000 00",
      scenario: "delivered",
      deliveredAt: "2025-07-01T15:00:00Z",
    });
    expect(ok.status).toBe(200);
    const { lookup } = lookupWith(fake.env);
    const r = success(await lookup.track("USPS", "9400100000000000000000"));
    expect(r.delivered).toBe(true);
    expect(Date.parse(r.deliveredAt ?? "")).toBe(Date.parse("2025-07-01T15:00:00Z"));

    const bad = await post("/__fake/scenario", { number: "X", scenario: "lost-in-space" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain("scenario one of");

    const stats = (await (await fetch(`${fake.baseUrl}/__fake/stats`)).json()) as {
      calls: Record<string, number>;
    };
    expect(stats.calls.USPS).toBe(1);
    expect((await post("/__fake/reset", {})).status).toBe(200);
    expect(fake.stats().calls.USPS).toBe(0);
    expect(success(await lookup.track("USPS", "9400100000000000000000")).delivered).toBe(false);
  });
});

describe("answers in other documented shapes", () => {
  test("UPS: a 200 whose shipment only carries warning TW0001 is not-found", () => {
    const o = parseUps({
      trackResponse: {
        shipment: [{ warnings: [{ code: "TW0001", message: "Tracking Information Not Found" }] }],
      },
    });
    expect(failure(o).reason).toBe("not-found");
  });

  test("UPS: delivered by a DEL delivery date and time when no activity says so", () => {
    const r = success(
      parseUps({
        trackResponse: {
          shipment: [
            {
              package: [
                {
                  deliveryDate: [{ type: "DEL", date: "20250712" }],
                  deliveryTime: { type: "DEL", endTime: "142000" },
                  currentStatus: { description: "Delivered", code: "011" },
                  activity: [],
                },
              ],
            },
          ],
        },
      }),
    );
    expect(r.delivered).toBe(true);
    expect(r.deliveredAt).toBe("2025-07-12T14:20:00");
  });

  test("FedEx: an estimated delivery window stands in for ESTIMATED_DELIVERY", () => {
    const r = success(
      parseFedex({
        output: {
          completeTrackResults: [
            {
              trackResults: [
                {
                  latestStatusDetail: { code: "IT", description: "In transit" },
                  estimatedDeliveryTimeWindow: {
                    window: {
                      begins: "2025-07-20T08:00:00-04:00",
                      ends: "2025-07-20T20:00:00-04:00",
                    },
                  },
                  dateAndTimes: [],
                  scanEvents: [],
                },
              ],
            },
          ],
        },
      }),
    );
    expect(r.expectedDelivery).toBe("2025-07-20");
    expect(r.status).toBe("In transit: In transit");
  });

  test("USPS: predictedDeliveryDate when there is no expected timestamp", () => {
    const r = success(
      parseUsps({
        statusCategory: "In Transit",
        predictedDeliveryDate: "2025-07-21",
        trackingEvents: [],
      }),
    );
    expect(r.expectedDelivery).toBe("2025-07-21");
    expect(r.delivered).toBe(false);
  });
});

describe("trouble a carrier reports (the tracking_problem alert)", () => {
  const ups = (type: string, description: string) =>
    success(
      parseUps({
        trackResponse: {
          shipment: [{ package: [{ currentStatus: { type, description }, activity: [] }] }],
        },
      }),
    );
  const fedex = (code: string, description: string) =>
    success(
      parseFedex({
        output: {
          completeTrackResults: [
            { trackResults: [{ latestStatusDetail: { code, description }, scanEvents: [] }] },
          ],
        },
      }),
    );
  const usps = (statusCategory: string, status: string) =>
    success(parseUsps({ statusCategory, status, trackingEvents: [] }));
  const ship24 = (statusMilestone: string, statusCode: string | null = null) =>
    success(
      parseShip24({
        data: {
          trackings: [
            {
              shipment: { statusMilestone, statusCode },
              events: [{ status: "Update", statusMilestone, datetime: "2025-07-20T10:00:00Z" }],
            },
          ],
        },
      }),
    );

  test("UPS: status type X is an exception, RS a return; I is none", () => {
    expect(ups("X", "THE ADDRESS COULD NOT BE FOUND")).toMatchObject({
      problem: "exception",
      status: "The address could not be found",
    });
    expect(ups("RS", "RETURNED TO SHIPPER").problem).toBe("returned");
    expect(ups("I", "ARRIVED AT FACILITY").problem).toBeNull();
  });

  test("FedEx: DE and SE are exceptions, RS a return; IT is none", () => {
    expect(fedex("DE", "Delivery exception").problem).toBe("exception");
    expect(fedex("SE", "Shipment exception").problem).toBe("exception");
    expect(fedex("RS", "Return to shipper").problem).toBe("returned");
    expect(fedex("IT", "In transit").problem).toBeNull();
  });

  test("USPS: Alert, Delivery Attempt and Return to Sender; In Transit is none", () => {
    expect(usps("Alert", "Held at Post Office").problem).toBe("exception");
    expect(
      usps("Delivery Attempt", "Notice Left (No Authorized Recipient Available)"),
    ).toMatchObject({
      problem: "failed-attempt",
      status: "Notice Left (No Authorized Recipient Available)",
    });
    expect(usps("Alert", "Return to Sender").problem).toBe("returned");
    expect(usps("In Transit", "Arrived at USPS Facility").problem).toBeNull();
  });

  test("Ship24: exception, failed_attempt, exception_return*; in_transit is none", () => {
    expect(ship24("exception").problem).toBe("exception");
    expect(ship24("failed_attempt").problem).toBe("failed-attempt");
    expect(ship24("exception", "exception_returned").problem).toBe("returned");
    expect(ship24("in_transit").problem).toBeNull();
  });
});
