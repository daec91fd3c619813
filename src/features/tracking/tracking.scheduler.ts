/**
 * The daily tracking check (docs/behaviour.md#constants-and-limits: once a day at the user's time): one schedule per
 * user at their local HH:MM in their zone.
 *
 * Why not src/jobs/registry.ts: the registry holds a fixed set of app-wide jobs, registered before
 * start, each one croner timer in server time. These schedules are per user, come and go while the
 * app runs (preferences, time-zone changes, new and deleted accounts), each in its own zone, and
 * need a start-up catch-up that compares a stored last run with the previous occurrence. croner is
 * still the calendar (`new Cron(pattern, { timezone })` → next/previous occurrence, daylight saving
 * included), but the timers are ours, so the clock and the timers can be injected and tests run a
 * day (or a DST change) in milliseconds.
 *
 * - Rescheduled at once when preferences or the zone change (`reschedule`), removed with the user
 *   (`remove`); a reconcile every hour also picks up accounts no hook told us about.
 * - A run never overlaps the same user's previous run (it is skipped and logged); runs of different
 *   users are independent (the carrier lookup bounds calls in flight).
 * - tracking_last_run_at is recorded after each run (its start time). At start, a user whose
 *   previous occurrence is later than their last run (or their account creation) missed a run
 *   while the app was down: it runs once, in the background, one user at a time.
 * - Daylight saving (croner's rules): a time that does not exist that day (02:30 on the spring-
 *   forward day in New York) runs once when the clock jumps (03:00 local); a time that happens
 *   twice (01:30 on the fall-back day) runs once, at the first of the two.
 * - No zone saved: UTC (as the orders service reads dates). No time saved: 09:00.
 */
import { Cron } from "croner";
import pTimeout from "p-timeout";
import { DEFAULT_TRACKING_UPDATE_TIME, TRACKING_TIME_RE } from "../../contract/constants.ts";
import type { Logger } from "../../log.ts";
import { canonicalTimeZone } from "../../util/time-zone.ts";
import type { ScheduleRow, TrackingRepo } from "./tracking.repo.ts";

export type SchedulerTimers = {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

export type ScheduleTrigger = "schedule" | "start";

const realTimers: SchedulerTimers = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    (t as { unref?: () => void }).unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** A timer never waits longer than this: a wall-clock jump (suspend, NTP) is noticed within it. */
const MAX_WAIT_MS = 60 * 60 * 1000;
const RECONCILE_MS = 60 * 60 * 1000;

type Entry = { zone: string; time: string; due: Date; handle: unknown; cron: Cron };

/** The zone and time a user's check runs at. */
export function scheduleOf(row: Pick<ScheduleRow, "timezone" | "trackingUpdateTime">): {
  zone: string;
  time: string;
} {
  const zone = (row.timezone && canonicalTimeZone(row.timezone)) || "UTC";
  const time =
    row.trackingUpdateTime && TRACKING_TIME_RE.test(row.trackingUpdateTime)
      ? row.trackingUpdateTime
      : DEFAULT_TRACKING_UPDATE_TIME;
  return { zone, time };
}

function calendar(zone: string, time: string): Cron {
  const [h, m] = time.split(":").map(Number);
  return new Cron(`${m} ${h} * * *`, { timezone: zone, paused: true });
}

/** The user's occurrences around `at`: the last one at or before it and the next one after it. */
export function occurrences(
  row: Pick<ScheduleRow, "timezone" | "trackingUpdateTime">,
  at: Date,
): { previous: Date | null; next: Date | null } {
  const { zone, time } = scheduleOf(row);
  const cron = calendar(zone, time);
  const next = cron.nextRun(at);
  // previousRuns is strictly before its reference: one millisecond later includes `at` itself.
  const previous = cron.previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;
  return { previous, next };
}

export function createTrackingScheduler(deps: {
  repo: Pick<TrackingRepo, "scheduleRow" | "scheduleRows" | "setLastRunAt">;
  /** One user's check (the tracking service's update-all). */
  run: (userId: number, trigger: ScheduleTrigger) => Promise<unknown>;
  log: Logger;
  now?: () => Date;
  timers?: SchedulerTimers;
  reconcileMs?: number;
}) {
  const now = deps.now ?? (() => new Date());
  const timers = deps.timers ?? realTimers;
  const log = deps.log;
  const entries = new Map<number, Entry>();
  const running = new Map<number, Promise<void>>();
  const catchUp: number[] = [];
  let draining: Promise<void> | null = null;
  let reconcileHandle: unknown = null;
  let started = false;
  let stopped = false;

  function clear(userId: number) {
    const e = entries.get(userId);
    if (e) timers.clearTimeout(e.handle);
    entries.delete(userId);
  }

  function arm(userId: number, e: Omit<Entry, "handle">) {
    const wait = Math.max(0, Math.min(e.due.getTime() - now().getTime(), MAX_WAIT_MS));
    const handle = timers.setTimeout(() => onTimer(userId), wait);
    entries.set(userId, { ...e, handle });
  }

  /** (Re)schedules one user from their stored preferences; false when they do not exist. */
  function schedule(row: ScheduleRow): boolean {
    clear(row.userId);
    const { zone, time } = scheduleOf(row);
    const cron = calendar(zone, time);
    const due = cron.nextRun(now());
    if (!due) return false;
    arm(row.userId, { zone, time, due, cron });
    return true;
  }

  function onTimer(userId: number) {
    const e = entries.get(userId);
    if (!e || stopped) return;
    const t = now();
    if (t.getTime() < e.due.getTime()) {
      arm(userId, e); // woke early (the wait is capped): wait for the rest
      return;
    }
    const next = e.cron.nextRun(new Date(Math.max(t.getTime(), e.due.getTime())));
    if (next) arm(userId, { ...e, due: next });
    else clear(userId);
    if (!deps.repo.scheduleRow(userId)) {
      clear(userId); // the account is gone
      return;
    }
    void fire(userId, "schedule");
  }

  function fire(userId: number, trigger: ScheduleTrigger): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running.has(userId)) {
      log.warn({ userId, trigger }, "daily tracking check still running: this run is skipped");
      return Promise.resolve();
    }
    const startedAt = now();
    const p = (async () => {
      try {
        await deps.run(userId, trigger);
        deps.repo.setLastRunAt(userId, startedAt.toISOString());
      } catch (err) {
        log.error({ err, userId, trigger }, "daily tracking check failed");
      }
    })().finally(() => running.delete(userId));
    running.set(userId, p);
    return p;
  }

  /** A run was due while the app was down: the previous occurrence is after the last run. */
  function missed(row: ScheduleRow, at: Date): boolean {
    const { previous } = occurrences(row, at);
    if (!previous) return false;
    const ref = Math.max(
      row.trackingLastRunAt ? Date.parse(row.trackingLastRunAt) : 0,
      Date.parse(row.createdAt) || 0,
    );
    return previous.getTime() > ref;
  }

  function drainCatchUp() {
    if (draining) return;
    draining = (async () => {
      while (catchUp.length > 0 && !stopped) {
        const userId = catchUp.shift();
        if (userId === undefined) break;
        await fire(userId, "start");
      }
    })().finally(() => {
      draining = null;
    });
  }

  /** Schedules users not scheduled yet (catching up a missed run) and drops deleted ones. */
  function reconcile(): void {
    const rows = deps.repo.scheduleRows();
    const seen = new Set<number>();
    const at = now();
    let caught = 0;
    for (const row of rows) {
      seen.add(row.userId);
      if (entries.has(row.userId)) continue;
      try {
        if (!schedule(row)) continue;
        if (missed(row, at)) {
          catchUp.push(row.userId);
          caught++;
        }
      } catch (err) {
        log.error({ err, userId: row.userId }, "could not schedule the daily tracking check");
      }
    }
    for (const userId of [...entries.keys()]) if (!seen.has(userId)) clear(userId);
    if (caught > 0) {
      log.info(
        { users: caught },
        "daily tracking checks missed while the app was down: running now",
      );
      drainCatchUp();
    }
  }

  function armReconcile() {
    reconcileHandle = timers.setTimeout(() => {
      if (stopped) return;
      try {
        reconcile();
      } catch (err) {
        log.error({ err }, "daily tracking schedules could not be refreshed");
      }
      armReconcile();
    }, deps.reconcileMs ?? RECONCILE_MS);
  }

  return {
    /** Schedules every user and catches up missed runs in the background. */
    start() {
      if (started || stopped) return;
      started = true;
      reconcile();
      armReconcile();
      log.info({ users: entries.size }, "daily tracking checks scheduled");
    },

    /** After a preference or time-zone change: the user's next run follows the new values. */
    reschedule(userId: number) {
      if (!started || stopped) return;
      const row = deps.repo.scheduleRow(userId);
      if (!row) {
        clear(userId);
        return;
      }
      try {
        schedule(row);
      } catch (err) {
        log.error({ err, userId }, "could not reschedule the daily tracking check");
      }
    },

    /** The account is being deleted: no more runs. */
    remove(userId: number) {
      clear(userId);
      const i = catchUp.indexOf(userId);
      if (i >= 0) catchUp.splice(i, 1);
    },

    /** Unschedules everything and waits (up to timeoutMs) for runs in progress to end. */
    async stop(timeoutMs = 5000) {
      stopped = true;
      for (const userId of [...entries.keys()]) clear(userId);
      if (reconcileHandle !== null) timers.clearTimeout(reconcileHandle);
      catchUp.length = 0;
      const busy = [...running.values()];
      if (busy.length === 0) return;
      await pTimeout(Promise.all(busy), { milliseconds: timeoutMs, message: false });
    },

    /** When the user's next check is due (null: not scheduled). */
    nextRunAt: (userId: number): Date | null => entries.get(userId)?.due ?? null,
    scheduledUsers: (): number[] => [...entries.keys()],
    /** Resolves when no run and no catch-up is in progress (tests, shutdown). */
    async idle(): Promise<void> {
      while (draining || running.size > 0) {
        await Promise.all([draining, ...running.values()]);
      }
    },
  };
}
export type TrackingScheduler = ReturnType<typeof createTrackingScheduler>;
