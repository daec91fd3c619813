/**
 * The daily tracking check on a controlled clock and timers: users in different zones,
 * preference and time-zone changes, daylight-saving days, a missed run after downtime, no overlap.
 * Real SQLite and the real services; the carrier lookup is in memory (its HTTP is tested with the
 * fake carriers in test/api/tracking*.test.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { occurrences } from "../src/features/tracking/tracking.scheduler.ts";
import type { TrackingOutcome } from "../src/tracking/types.ts";
import { call } from "./api/helpers.ts";
import { createHarness, type Harness } from "./harness.ts";
import { seedOrder } from "./support/seed-orders.ts";
import { type FakeTime, fakeTime, memoryLookup } from "./support/tracking-fakes.ts";

let h: Harness;
let time: FakeTime;
let lookup: ReturnType<typeof memoryLookup>;

function setup(startIso: string) {
  time = fakeTime(startIso);
  lookup = memoryLookup(time.now);
  h = createHarness({}, { tracking: { lookup, now: time.now, timers: time.timers } });
}
afterEach(async () => {
  await h.services.trackingScheduler.stop();
  await h.close();
});

const scheduler = () => h.services.trackingScheduler;
const settle = () => scheduler().idle();
const advance = (iso: string) => time.advanceTo(iso, settle);

let seq = 0;
/** A user with the given zone/time (straight into SQLite) and one Shipped UPS order. */
async function user(
  timezone: string | null,
  updateTime: string | null,
  opts: { createdAt?: string; lastRunAt?: string | null; shipped?: boolean } = {},
) {
  const u = await h.register();
  h.db.$client
    .query(
      "UPDATE users SET timezone = ?, tracking_update_time = ?, created_at = ?, tracking_last_run_at = ? WHERE id = ?",
    )
    .run(
      timezone,
      updateTime,
      // An account made now, unless it has run before.
      opts.createdAt ?? (opts.lastRunAt ? "2026-01-01T00:00:00.000Z" : time.now().toISOString()),
      opts.lastRunAt ?? null,
      u.userid,
    );
  const number = `1Z999AA1${String(++seq).padStart(10, "0")}`;
  seedOrder(h.db, u.userid, {
    product_name: "Garden Hose",
    asin: "B0TEST0001",
    status: opts.shipped === false ? "Ordered" : "Shipped",
    tracking_number: number,
    carrier: "UPS",
  });
  return { ...u, number };
}

const lastRunAt = (userId: number) =>
  (
    h.db.$client.query("SELECT tracking_last_run_at AS v FROM users WHERE id = ?").get(userId) as {
      v: string | null;
    }
  ).v;
const callsFor = (number: string) =>
  lookup.calls.filter((c) => c.number === number).map((c) => c.at);
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("one schedule per user, at their local time in their zone", () => {
  test("users in New York, London and Tokyo each run at their own 09:00 / 18:30", async () => {
    setup("2026-06-01T00:30:00.000Z");
    const ny = await user("America/New_York", "09:00");
    const london = await user("Europe/London", "18:30");
    const tokyo = await user("Asia/Tokyo", "09:00");
    const noZone = await user(null, null); // default 09:00, UTC
    const idle = await user("America/Chicago", "09:00", { shipped: false });
    scheduler().start();

    expect(iso(scheduler().nextRunAt(ny.userid))).toBe("2026-06-01T13:00:00.000Z"); // EDT
    expect(iso(scheduler().nextRunAt(london.userid))).toBe("2026-06-01T17:30:00.000Z"); // BST
    expect(iso(scheduler().nextRunAt(tokyo.userid))).toBe("2026-06-02T00:00:00.000Z"); // JST
    expect(iso(scheduler().nextRunAt(noZone.userid))).toBe("2026-06-01T09:00:00.000Z");
    expect(iso(scheduler().nextRunAt(idle.userid))).toBe("2026-06-01T14:00:00.000Z"); // CDT

    await advance("2026-06-02T12:00:00.000Z");
    expect(callsFor(noZone.number)).toEqual([
      "2026-06-01T09:00:00.000Z",
      "2026-06-02T09:00:00.000Z",
    ]);
    expect(callsFor(ny.number)).toEqual(["2026-06-01T13:00:00.000Z"]);
    expect(callsFor(london.number)).toEqual(["2026-06-01T17:30:00.000Z"]);
    expect(callsFor(tokyo.number)).toEqual(["2026-06-02T00:00:00.000Z"]);
    expect(callsFor(idle.number)).toEqual([]); // only Shipped orders are looked up
    expect(lookup.calls).toHaveLength(5);
    // Every run is recorded, including the one that had nothing to look up.
    expect(lastRunAt(ny.userid)).toBe("2026-06-01T13:00:00.000Z");
    expect(lastRunAt(idle.userid)).toBe("2026-06-01T14:00:00.000Z");
    expect(lastRunAt(tokyo.userid)).toBe("2026-06-02T00:00:00.000Z");
    // ...and the next day is scheduled.
    expect(iso(scheduler().nextRunAt(ny.userid))).toBe("2026-06-02T13:00:00.000Z");

    await advance("2026-06-03T12:00:00.000Z");
    expect(callsFor(ny.number)).toEqual(["2026-06-01T13:00:00.000Z", "2026-06-02T13:00:00.000Z"]);
  });

  test("a delivered answer in a scheduled run makes the order Received", async () => {
    setup("2026-06-01T00:00:00.000Z");
    const u = await user("America/Chicago", "09:00");
    lookup.answers.set(u.number, {
      ok: true,
      result: {
        delivered: true,
        deliveredAt: "2026-06-01T08:12:00-05:00",
        expectedDelivery: null,
        status: "Delivered, Front Door, AUSTIN TX",
        events: [],
      },
    });
    scheduler().start();
    await advance("2026-06-01T15:00:00.000Z");
    const row = h.db.$client
      .query("SELECT status, date_delivered AS d FROM orders WHERE user_id = ?")
      .get(u.userid) as { status: string; d: string };
    expect(row).toEqual({ status: "Received", d: "2026-06-01T13:12:00.000Z" });
  });
});

describe("rescheduled the moment preferences or the time zone change", () => {
  test("POST /api/tracking/preferences moves the next run at once", async () => {
    setup("2026-06-01T00:00:00.000Z");
    const u = await user("America/Chicago", "09:00");
    scheduler().start();
    expect(iso(scheduler().nextRunAt(u.userid))).toBe("2026-06-01T14:00:00.000Z");

    const res = await call(h, "POST", "/api/tracking/preferences", {
      token: u.token,
      body: { timezone: "Europe/Paris", updateTime: "18:30" },
    });
    expect(res.status).toBe(200);
    expect(iso(scheduler().nextRunAt(u.userid))).toBe("2026-06-01T16:30:00.000Z"); // CEST

    await advance("2026-06-01T16:00:00.000Z");
    expect(callsFor(u.number)).toEqual([]); // nothing at the old 09:00 Chicago
    await advance("2026-06-01T17:00:00.000Z");
    expect(callsFor(u.number)).toEqual(["2026-06-01T16:30:00.000Z"]);
  });

  test("PATCH /api/user/timezone moves it too; deleting the account removes it", async () => {
    setup("2026-06-01T00:00:00.000Z");
    const u = await user("America/Chicago", "09:00");
    const other = await user("America/Chicago", "09:00");
    scheduler().start();
    const tz = await call(h, "PATCH", "/api/user/timezone", {
      token: u.token,
      body: { timezone: "America/Los_Angeles" },
    });
    expect(tz.status).toBe(200);
    expect(iso(scheduler().nextRunAt(u.userid))).toBe("2026-06-01T16:00:00.000Z"); // PDT

    const del = await call(h, "DELETE", "/api/user", {
      token: u.token,
      body: { password: u.password },
    });
    expect(del.status).toBe(200);
    expect(scheduler().nextRunAt(u.userid)).toBeNull();
    expect(scheduler().scheduledUsers()).toEqual([other.userid]);
    await advance("2026-06-02T00:00:00.000Z");
    expect(callsFor(u.number)).toEqual([]);
    expect(callsFor(other.number)).toEqual(["2026-06-01T14:00:00.000Z"]);
  });

  test("an account created after start is picked up by the hourly refresh", async () => {
    setup("2026-06-01T00:00:00.000Z");
    scheduler().start();
    const late = await user("Asia/Tokyo", "09:30", { createdAt: "2026-06-01T00:00:00.000Z" });
    expect(scheduler().nextRunAt(late.userid)).toBeNull();
    await advance("2026-06-01T01:00:00.000Z");
    // Scheduled at the refresh; 09:30 JST (00:30Z) had passed since the account was made: caught up.
    expect(callsFor(late.number)).toEqual(["2026-06-01T01:00:00.000Z"]);
    expect(iso(scheduler().nextRunAt(late.userid))).toBe("2026-06-02T00:30:00.000Z");
  });
});

describe("daylight saving (America/New_York)", () => {
  test("spring forward 2026-03-08: 02:30 does not exist and runs once at 03:00; 09:00 stays 09:00", async () => {
    setup("2026-03-07T05:00:00.000Z");
    const early = await user("America/New_York", "02:30");
    const nine = await user("America/New_York", "09:00");
    scheduler().start();
    await advance("2026-03-10T12:00:00.000Z");
    expect(callsFor(early.number)).toEqual([
      "2026-03-07T07:30:00.000Z", // 02:30 EST
      "2026-03-08T07:00:00.000Z", // the clock jumps 02:00 → 03:00 EDT: once, at 03:00
      "2026-03-09T06:30:00.000Z", // 02:30 EDT
      "2026-03-10T06:30:00.000Z",
    ]);
    expect(callsFor(nine.number)).toEqual([
      "2026-03-07T14:00:00.000Z", // 09:00 EST
      "2026-03-08T13:00:00.000Z", // 09:00 EDT
      "2026-03-09T13:00:00.000Z",
    ]);
  });

  test("fall back 2026-11-01: 01:30 happens twice and runs once; 09:00 stays 09:00", async () => {
    setup("2026-10-31T04:00:00.000Z");
    const early = await user("America/New_York", "01:30");
    const nine = await user("America/New_York", "09:00");
    scheduler().start();
    await advance("2026-11-02T12:00:00.000Z");
    expect(callsFor(early.number)).toEqual([
      "2026-10-31T05:30:00.000Z", // 01:30 EDT
      "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT); not again at 01:30 EST (06:30Z)
      "2026-11-02T06:30:00.000Z", // 01:30 EST
    ]);
    expect(callsFor(nine.number)).toEqual([
      "2026-10-31T13:00:00.000Z", // 09:00 EDT
      "2026-11-01T14:00:00.000Z", // 09:00 EST
    ]);
  });

  test("occurrences() agrees across the changes", () => {
    const ny = { timezone: "America/New_York", trackingUpdateTime: "02:30" };
    const o = occurrences(ny, new Date("2026-03-08T08:00:00.000Z"));
    expect(iso(o.previous)).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(o.next)).toBe("2026-03-09T06:30:00.000Z");
  });
});

describe("a missed run after downtime", () => {
  test("runs once at start when the scheduled time passed while the app was down", async () => {
    // Down from 2026-06-01 20:00Z to 2026-06-04 15:00Z: three 09:00 New York runs missed.
    setup("2026-06-04T15:00:00.000Z");
    const missed = await user("America/New_York", "09:00", {
      lastRunAt: "2026-06-01T13:00:01.000Z",
    });
    // Ran today already (before a restart): nothing to catch up.
    const upToDate = await user("America/New_York", "09:00", {
      lastRunAt: "2026-06-04T13:00:00.000Z",
    });
    // Its time today (20:00 New York) has not come yet; yesterday's ran.
    const later = await user("America/New_York", "20:00", {
      lastRunAt: "2026-06-04T00:00:00.000Z",
    });
    // Never ran, but the account is older than today's 09:00.
    const never = await user("America/New_York", "09:00", {
      createdAt: "2026-05-01T00:00:00.000Z",
    });
    // Never ran, created after today's 09:00: nothing was owed.
    const fresh = await user("America/New_York", "09:00", {
      createdAt: "2026-06-04T14:00:00.000Z",
    });
    scheduler().start();
    await settle();

    expect(callsFor(missed.number)).toEqual(["2026-06-04T15:00:00.000Z"]); // once, not three times
    expect(callsFor(never.number)).toEqual(["2026-06-04T15:00:00.000Z"]);
    expect(callsFor(upToDate.number)).toEqual([]);
    expect(callsFor(later.number)).toEqual([]);
    expect(callsFor(fresh.number)).toEqual([]);
    expect(lastRunAt(missed.userid)).toBe("2026-06-04T15:00:00.000Z");
    expect(iso(scheduler().nextRunAt(missed.userid))).toBe("2026-06-05T13:00:00.000Z");

    await advance("2026-06-05T14:00:00.000Z");
    expect(callsFor(missed.number)).toEqual([
      "2026-06-04T15:00:00.000Z",
      "2026-06-05T13:00:00.000Z",
    ]);
    expect(callsFor(later.number)).toEqual(["2026-06-05T00:00:00.000Z"]);
  });

  test("a run that did not finish (no last run recorded) is caught up at the next start", async () => {
    setup("2026-06-01T13:00:00.000Z");
    const u = await user("America/New_York", "09:00", { lastRunAt: "2026-05-31T13:00:00.000Z" });
    let release: () => void = () => {};
    lookup.answers.set(
      u.number,
      () =>
        new Promise<TrackingOutcome>((resolve) => {
          release = () =>
            resolve({ ok: false, reason: "timeout", message: "no answer in 15000 ms" });
        }),
    );
    // Started exactly at 09:00 New York: today's run is the catch-up (previous occurrence = now).
    scheduler().start();
    expect(callsFor(u.number)).toHaveLength(1);
    await scheduler().stop(10); // shut down while the run hangs
    expect(lastRunAt(u.userid)).toBe("2026-05-31T13:00:00.000Z");
    release();
  });
});

describe("never overlapping itself", () => {
  test("a run still going at the next day's time is skipped; a manual update joins it", async () => {
    setup("2026-06-01T00:00:00.000Z");
    const u = await user("UTC", "09:00");
    let release: (o: TrackingOutcome) => void = () => {};
    lookup.answers.set(
      u.number,
      () =>
        new Promise<TrackingOutcome>((resolve) => {
          release = resolve;
        }),
    );
    scheduler().start();
    await time.advanceTo("2026-06-01T09:00:00.000Z"); // the run starts and hangs
    expect(lookup.calls).toHaveLength(1);

    // The user presses Update All meanwhile: it waits for the run in progress, no second look-up.
    const manual = call(h, "POST", "/api/tracking/update-all", { token: u.token });
    await time.advanceTo("2026-06-02T09:00:00.000Z"); // next day's time: still running → skipped
    expect(lookup.calls).toHaveLength(1);

    release({
      ok: true,
      result: {
        delivered: false,
        deliveredAt: null,
        expectedDelivery: "2026-06-05",
        status: "In transit",
        events: [],
      },
    });
    lookup.answers.delete(u.number); // later runs answer at once
    const res = await manual;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalProcessed: 1, successfulUpdates: 1 });
    await settle();
    expect(lastRunAt(u.userid)).toBe("2026-06-01T09:00:00.000Z");
    await advance("2026-06-03T10:00:00.000Z");
    expect(lookup.calls.map((c) => c.at)).toEqual([
      "2026-06-01T09:00:00.000Z",
      "2026-06-03T09:00:00.000Z",
    ]);
  });
});
