/** Background jobs: the registry (croner) and the review-reminders job on a controlled clock. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import pino from "pino";
import type { Notification } from "../src/contract/index.ts";
import { createRemindersRepo } from "../src/features/reminders/reminders.repo.ts";
import { runReviewReminders, wholeDaysSince } from "../src/features/reminders/reminders.service.ts";
import { createAppJobs, createJobRegistry } from "../src/jobs/registry.ts";
import {
  REVIEW_REMINDERS_JOB,
  REVIEW_REMINDERS_SCHEDULE,
} from "../src/jobs/review-reminders.job.ts";
import { createHarness, type Harness } from "./harness.ts";
import { seedOrder as seedRow } from "./support/seed-orders.ts";
import { waitFor } from "./support/wait.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const DAY = 24 * 60 * 60 * 1000;
/** Delivery / rejection instant used by most tests; "now" is BASE + n days. */
const BASE = Date.parse("2025-03-01T10:00:00.000Z");
const at = (days: number, hoursUtc = 10) =>
  new Date(BASE + days * DAY + (hoursUtc - 10) * 60 * 60 * 1000);

function seedOrder(
  userId: number,
  o: {
    name?: string;
    status: string;
    delivered?: string | null;
    rejected?: string | null;
  },
): number {
  return seedRow(h.db, userId, {
    product_name: o.name ?? "Widget",
    status: o.status,
    date_delivered: o.delivered ?? null,
    date_review_rejected: o.rejected ?? null,
  });
}

const setStatus = (orderId: number, status: string) =>
  h.db.$client.query("UPDATE orders SET status = ? WHERE id = ?").run(status, orderId);

const notes = (userId: number): Notification[] => h.services.notifications.list(userId);

const run = (now: Date) =>
  runReviewReminders(
    { reminders: createRemindersRepo(h.db), notifications: h.services.notifications },
    now,
  );

describe("wholeDaysSince", () => {
  test("counts calendar days in the zone, for date-times and date-only values", () => {
    const now = new Date("2025-03-15T12:00:00Z");
    expect(wholeDaysSince("2025-03-01T10:00:00.000Z", now, null)).toBe(14);
    expect(wholeDaysSince("2025-03-01T23:59:59.000Z", now, "UTC")).toBe(14);
    expect(wholeDaysSince("2025-03-01", now, "Asia/Tokyo")).toBe(14);
    // 03:00 UTC on 2 March is still 1 March in Chicago.
    expect(wholeDaysSince("2025-03-02T03:00:00Z", now, "America/Chicago")).toBe(14);
    expect(wholeDaysSince("2025-03-02T03:00:00Z", now, "UTC")).toBe(13);
    // Across the DST change (9 March in the US) it is still whole days.
    expect(wholeDaysSince("2025-03-08T12:00:00Z", now, "America/New_York")).toBe(7);
    expect(wholeDaysSince("not a date", now, null)).toBeNull();
    expect(wholeDaysSince("2025-03-01", now, "Not/AZone")).toBe(14);
  });
});

describe("review reminders", () => {
  test("Received: 13 days nothing, 14 a warning once, 30 a critical once", async () => {
    const u = await h.register();
    const id = seedOrder(u.userid, {
      name: "Garden Hose",
      status: "Received",
      delivered: at(0).toISOString(),
    });

    expect(run(at(13)).sent).toBe(0);
    expect(notes(u.userid)).toEqual([]);

    expect(run(at(14)).sent).toBe(1);
    const [warn] = notes(u.userid);
    expect(warn?.level).toBe("warning");
    expect(warn?.message).toBe(
      `Review due: <strong>Garden Hose</strong> was delivered 14 days ago. <a href="/orders/${id}/edit?from=/&amp;section=review">Write the review</a>`,
    );

    // The same day again, and the days after: nothing new.
    expect(run(at(14, 18)).sent).toBe(0);
    expect(run(at(20)).sent).toBe(0);
    expect(run(at(29)).sent).toBe(0);
    expect(notes(u.userid)).toHaveLength(1);

    expect(run(at(30)).sent).toBe(1);
    const [crit] = notes(u.userid);
    expect(crit?.level).toBe("critical");
    expect(crit?.message).toStartWith(
      "Review overdue: <strong>Garden Hose</strong> was delivered 30 days ago.",
    );
    expect(run(at(30)).sent).toBe(0);
    expect(run(at(90)).sent).toBe(0);
    expect(notes(u.userid)).toHaveLength(2);
  });

  test("Review Rejected: 2 days nothing, 3 a warning, 7 a critical, each once", async () => {
    const u = await h.register();
    const id = seedOrder(u.userid, {
      name: "Desk Lamp",
      status: "Review Rejected",
      delivered: at(-40).toISOString(),
      rejected: at(0).toISOString(),
    });
    expect(run(at(2)).sent).toBe(0);
    expect(run(at(3)).sent).toBe(1);
    expect(run(at(3)).sent).toBe(0);
    expect(run(at(6)).sent).toBe(0);
    expect(run(at(7)).sent).toBe(1);
    expect(run(at(8)).sent).toBe(0);
    const list = notes(u.userid);
    expect(list.map((n) => n.level)).toEqual(["critical", "warning"]);
    expect(list[1]?.message).toBe(
      `Rewrite due: the review of <strong>Desk Lamp</strong> was rejected 3 days ago. <a href="/orders/${id}/edit?from=/&amp;section=review">Rewrite the review</a>`,
    );
    expect(list[0]?.message).toStartWith(
      "Rewrite overdue: the review of <strong>Desk Lamp</strong>",
    );
  });

  test("orders that moved on, or never qualify, get nothing", async () => {
    const u = await h.register();
    const submitted = seedOrder(u.userid, { status: "Received", delivered: at(0).toISOString() });
    const resubmitted = seedOrder(u.userid, {
      status: "Review Rejected",
      rejected: at(0).toISOString(),
    });
    setStatus(submitted, "Review Submitted");
    setStatus(resubmitted, "Review Submitted");
    for (const status of ["Ordered", "Shipped", "Review Approved", "Canceled"]) {
      seedOrder(u.userid, {
        status,
        delivered: at(0).toISOString(),
        rejected: at(0).toISOString(),
      });
    }
    // Received without a delivery date, Rejected without a rejection date, an unreadable date.
    seedOrder(u.userid, { status: "Received" });
    seedOrder(u.userid, { status: "Review Rejected", delivered: at(0).toISOString() });
    seedOrder(u.userid, { status: "Received", delivered: "sometime" });
    expect(run(at(45)).sent).toBe(0);
    expect(notes(u.userid)).toEqual([]);
  });

  test("an order that moves on between the thresholds gets no second reminder", async () => {
    const u = await h.register();
    const id = seedOrder(u.userid, { status: "Received", delivered: at(0).toISOString() });
    expect(run(at(14)).sent).toBe(1);
    setStatus(id, "Review Submitted");
    expect(run(at(30)).sent).toBe(0);
    expect(notes(u.userid)).toHaveLength(1);
  });

  test("a deleted notification is not sent again", async () => {
    const u = await h.register();
    seedOrder(u.userid, { status: "Received", delivered: at(0).toISOString() });
    expect(run(at(14)).sent).toBe(1);
    const res = await h.req("DELETE", "/api/notifications/delete-all", { token: u.token });
    expect(res.status).toBe(200);
    expect(run(at(15)).sent).toBe(0);
    expect(run(at(16)).sent).toBe(0);
    expect(notes(u.userid)).toEqual([]);
    // The next threshold still comes.
    expect(run(at(30)).sent).toBe(1);
  });

  test("an order past both thresholds at its first run gets only the higher one", async () => {
    const u = await h.register();
    seedOrder(u.userid, { status: "Received", delivered: at(-40).toISOString() });
    seedOrder(u.userid, { status: "Review Rejected", rejected: at(-10).toISOString() });
    expect(run(at(0)).sent).toBe(2);
    expect(notes(u.userid).map((n) => n.level)).toEqual(["critical", "critical"]);
    const messages = notes(u.userid).map((n) => n.message);
    expect(messages.some((m) => m.startsWith("Review overdue:") && m.includes("40 days"))).toBe(
      true,
    );
    expect(messages.some((m) => m.startsWith("Rewrite overdue:") && m.includes("10 days"))).toBe(
      true,
    );
    expect(run(at(1)).sent).toBe(0);
  });

  test("each user gets their own reminders, counted in their own time zone", async () => {
    const utc = await h.register();
    const chicago = await h.register();
    await h.req("PATCH", "/api/user/timezone", {
      token: chicago.token,
      body: { timezone: "America/Chicago" },
    });
    // 03:00 UTC on 2 March: 2 March in UTC, 1 March (evening) in Chicago.
    const delivered = "2025-03-02T03:00:00.000Z";
    seedOrder(utc.userid, { name: "UTC item", status: "Received", delivered });
    seedOrder(chicago.userid, { name: "Chicago item", status: "Received", delivered });
    // 15 March 12:00 UTC: 13 days for the UTC user, 14 for the Chicago user.
    const now = new Date("2025-03-15T12:00:00.000Z");
    expect(run(now).sent).toBe(1);
    expect(notes(utc.userid)).toEqual([]);
    expect(notes(chicago.userid).map((n) => n.message)).toEqual([
      expect.stringContaining("<strong>Chicago item</strong> was delivered 14 days ago"),
    ]);
    expect(run(new Date("2025-03-16T12:00:00.000Z")).sent).toBe(1);
    expect(notes(utc.userid)).toHaveLength(1);
    expect(notes(chicago.userid)).toHaveLength(1);
  });

  test("date-only values count as that calendar day", async () => {
    const u = await h.register();
    seedOrder(u.userid, { status: "Received", delivered: "2025-03-01" });
    expect(run(new Date("2025-03-14T23:59:00.000Z")).sent).toBe(0);
    expect(run(new Date("2025-03-15T00:01:00.000Z")).sent).toBe(1);
  });

  test("product names arrive escaped", async () => {
    const u = await h.register();
    seedOrder(u.userid, {
      name: "<img src=x onerror=alert(1)>",
      status: "Received",
      delivered: at(0).toISOString(),
    });
    expect(run(at(14)).sent).toBe(1);
    const [n] = notes(u.userid);
    expect(n?.message).toContain("<strong>&lt;img src=x onerror=alert(1)&gt;</strong>");
    expect(n?.message).not.toContain("<img");
  });

  test("each reminder is published to the owner's live events", async () => {
    const u = await h.register();
    const other = await h.register();
    seedOrder(u.userid, { status: "Received", delivered: at(0).toISOString() });
    const seen: string[] = [];
    const offs = [
      h.services.events.subscribe(u.userid, (e) => seen.push(`u:${e.table}:${e.operation}`)),
      h.services.events.subscribe(other.userid, (e) => seen.push(`o:${e.table}`)),
    ];
    run(at(14));
    for (const off of offs) off();
    expect(seen).toEqual(["u:notification:INSERT"]);
  });

  test("a deleted order takes its reminder records with it", async () => {
    const u = await h.register();
    const id = seedOrder(u.userid, { status: "Received", delivered: at(0).toISOString() });
    run(at(14));
    expect(
      createRemindersRepo(h.db)
        .listForOrder(id)
        .map((r) => r.kind),
    ).toEqual(["received-14"]);
    h.db.$client.query("DELETE FROM orders WHERE id = ?").run(id);
    expect(createRemindersRepo(h.db).listForOrder(id)).toEqual([]);
  });
});

/** A pino logger that keeps its lines in memory. */
function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: "debug", base: undefined },
    { write: (s: string) => lines.push(JSON.parse(s) as Record<string, unknown>) },
  );
  return { log, lines };
}

describe("job registry", () => {
  test("the app's jobs: review reminders daily at 08:00, run now with the registry's clock", async () => {
    const u = await h.register();
    seedOrder(u.userid, { status: "Received", delivered: at(0).toISOString() });
    let now = at(13);
    const { log } = memoryLogger();
    const jobs = createAppJobs({ services: h.services, log, now: () => now });
    expect(jobs.list()).toMatchObject([
      { name: REVIEW_REMINDERS_JOB, schedule: REVIEW_REMINDERS_SCHEDULE, running: false },
    ]);
    expect(REVIEW_REMINDERS_SCHEDULE).toBe("0 8 * * *");
    expect(await jobs.runNow(REVIEW_REMINDERS_JOB)).toMatchObject({
      status: "ok",
      result: { sent: 0 },
    });
    now = at(14);
    expect(await jobs.runNow(REVIEW_REMINDERS_JOB)).toMatchObject({
      status: "ok",
      result: { sent: 1 },
    });
    expect(await jobs.runNow(REVIEW_REMINDERS_JOB)).toMatchObject({ result: { sent: 0 } });
    expect(notes(u.userid)).toHaveLength(1);
    await jobs.stop();
  });

  test("start() schedules and runs the start-up jobs; stop() unschedules", async () => {
    const { log } = memoryLogger();
    const jobs = createJobRegistry({ log });
    let runs = 0;
    jobs.register({ name: "at-start", schedule: "0 8 * * *", runAtStart: true, run: () => ++runs });
    jobs.register({ name: "not-at-start", schedule: "0 8 * * *", run: () => ++runs });
    jobs.start();
    await waitFor(() => jobs.list()[0]?.lastOutcome, "the start-up run");
    expect(runs).toBe(1);
    const listed = jobs.list();
    expect(listed[0]?.lastOutcome).toMatchObject({ status: "ok", result: 1 });
    expect(Date.parse(listed[0]?.nextRun ?? "")).toBeGreaterThan(Date.now());
    await jobs.stop();
    expect(jobs.list().every((j) => j.nextRun === null)).toBe(true);
    expect(await jobs.runNow("at-start")).toEqual({ status: "skipped", reason: "stopped" });
  });

  test("a run never overlaps the previous one", async () => {
    const { log, lines } = memoryLogger();
    const jobs = createJobRegistry({ log });
    let runs = 0;
    let release!: () => void;
    jobs.register({
      name: "slow",
      schedule: "0 8 * * *",
      run: async () => {
        runs++;
        await new Promise<void>((r) => {
          release = r;
        });
        return "done";
      },
    });
    const first = jobs.runNow("slow");
    expect(jobs.isRunning("slow")).toBe(true);
    expect(await jobs.runNow("slow")).toEqual({ status: "skipped", reason: "already running" });
    await waitFor(() => runs === 1, "the first run to start");
    release();
    expect(runs).toBe(1);
    expect(await first).toMatchObject({ status: "ok", result: "done" });
    expect(jobs.isRunning("slow")).toBe(false);
    expect(lines.some((l) => l.msg === "job is still running: this run is skipped")).toBe(true);
    // Once finished it runs again.
    const second = jobs.runNow("slow");
    await waitFor(() => runs === 2, "the second run to start");
    release();
    expect(await second).toMatchObject({ status: "ok" });
    expect(runs).toBe(2);
  });

  test("errors are logged, not thrown; the job runs again next time", async () => {
    const { log, lines } = memoryLogger();
    const jobs = createJobRegistry({ log });
    let fail = true;
    jobs.register({
      name: "flaky",
      schedule: "0 8 * * *",
      run: () => {
        if (fail) throw new Error("boom");
        return 1;
      },
    });
    expect(await jobs.runNow("flaky")).toMatchObject({ status: "failed", error: "boom" });
    const logged = lines.find((l) => l.msg === "job failed");
    expect(logged).toMatchObject({ job: "flaky", level: 50 });
    fail = false;
    expect(await jobs.runNow("flaky")).toMatchObject({ status: "ok", result: 1 });
  });

  test("stop() waits for a run in progress", async () => {
    const { log } = memoryLogger();
    const jobs = createJobRegistry({ log });
    let finished = false;
    jobs.register({
      name: "busy",
      schedule: "0 8 * * *",
      run: async () => {
        await Bun.sleep(30);
        finished = true;
      },
    });
    void jobs.runNow("busy");
    await jobs.stop();
    expect(finished).toBe(true);
  });

  test("bad definitions fail at registration", () => {
    const { log } = memoryLogger();
    const jobs = createJobRegistry({ log });
    expect(() => jobs.register({ name: "bad", schedule: "not a pattern", run: () => 0 })).toThrow();
    jobs.register({ name: "ok", schedule: "*/5 * * * *", run: () => 0 });
    expect(() => jobs.register({ name: "ok", schedule: "* * * * *", run: () => 0 })).toThrow(
      /twice/,
    );
    expect(() => jobs.runNow("missing")).toThrow(/Unknown job/);
  });

  test("a scheduled run fires through croner", async () => {
    const { log } = memoryLogger();
    const jobs = createJobRegistry({ log });
    let runs = 0;
    jobs.register({ name: "every-second", schedule: "* * * * * *", run: () => ++runs });
    jobs.start();
    await waitFor(() => runs > 0, "a scheduled run");
    await jobs.stop();
    expect(runs).toBeGreaterThanOrEqual(1);
    // Stopped: nothing is scheduled any more.
    expect(jobs.list().map((j) => j.nextRun)).toEqual([null]);
  });
});
