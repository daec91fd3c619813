/**
 * Background jobs: a small registry over croner. Each job lives in its own file (`*.job.ts`) and
 * is registered in one place, `createAppJobs` at the bottom of this file.
 *
 * - A job never overlaps itself: a run that comes while the previous one is still going (a slow
 *   scheduled run, or `runNow` during it) is skipped and logged.
 * - Errors are logged, never thrown: the scheduler and the process carry on.
 * - `runNow(name)` runs a job at once (start-up runs, tests) and resolves with the outcome.
 */
import { Cron } from "croner";
import pTimeout from "p-timeout";
import type { Logger } from "../log.ts";
import type { Services } from "../services.ts";
import { reviewRemindersJob } from "./review-reminders.job.ts";
import type { JobDefinition } from "./types.ts";

export type { JobContext, JobDefinition } from "./types.ts";

export type RunOutcome =
  | { status: "ok"; result: unknown; ms: number }
  | { status: "failed"; error: string; ms: number }
  | { status: "skipped"; reason: string };

type JobState = {
  def: JobDefinition;
  cron: Cron | null;
  running: Promise<RunOutcome> | null;
  lastRunAt: Date | null;
  lastOutcome: RunOutcome | null;
};

export function createJobRegistry(deps: { log: Logger; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const log = deps.log;
  const jobs = new Map<string, JobState>();
  let started = false;
  let stopped = false;

  function execute(name: string, trigger: "schedule" | "start" | "manual"): Promise<RunOutcome> {
    const job = jobs.get(name);
    if (!job) throw new Error(`Unknown job "${name}"`);
    if (stopped) return Promise.resolve({ status: "skipped", reason: "stopped" });
    if (job.running) {
      log.warn({ job: name, trigger }, "job is still running: this run is skipped");
      return Promise.resolve({ status: "skipped", reason: "already running" });
    }
    const startedAt = now();
    job.lastRunAt = startedAt;
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    // The guard is set before the job body starts (it runs a microtask later).
    const run: Promise<RunOutcome> = Promise.resolve()
      .then(() => job.def.run({ now: startedAt, log: log.child({ job: name }) }))
      .then(
        (result): RunOutcome => {
          const outcome: RunOutcome = { status: "ok", result, ms: ms() };
          log.info({ job: name, trigger, ms: outcome.ms, result }, "job finished");
          return outcome;
        },
        (err: unknown): RunOutcome => {
          const outcome: RunOutcome = {
            status: "failed",
            error: err instanceof Error ? err.message : String(err),
            ms: ms(),
          };
          log.error({ job: name, trigger, ms: outcome.ms, err }, "job failed");
          return outcome;
        },
      )
      .then((outcome) => {
        job.running = null;
        job.lastOutcome = outcome;
        return outcome;
      });
    job.running = run;
    return run;
  }

  return {
    register(def: JobDefinition) {
      if (started) throw new Error(`Register job "${def.name}" before start()`);
      if (jobs.has(def.name)) throw new Error(`Job "${def.name}" is registered twice`);
      // Fails here, at boot, on a bad pattern.
      new Cron(def.schedule, { paused: true }).stop();
      jobs.set(def.name, { def, cron: null, running: null, lastRunAt: null, lastOutcome: null });
    },

    /** Schedules every job and starts the runAtStart ones in the background. */
    start() {
      if (started || stopped) return;
      started = true;
      for (const [name, job] of jobs) {
        job.cron = new Cron(job.def.schedule, { protect: true, catch: true }, () =>
          execute(name, "schedule").then(() => undefined),
        );
        log.info(
          { job: name, schedule: job.def.schedule, nextRun: job.cron.nextRun()?.toISOString() },
          "job scheduled",
        );
        if (job.def.runAtStart) void execute(name, "start");
      }
    },

    /** Unschedules everything and waits (up to timeoutMs) for runs in progress to end. */
    async stop(timeoutMs = 5000) {
      stopped = true;
      const running: Promise<unknown>[] = [];
      for (const job of jobs.values()) {
        job.cron?.stop();
        job.cron = null;
        if (job.running) running.push(job.running);
      }
      if (running.length === 0) return;
      await pTimeout(Promise.all(running), { milliseconds: timeoutMs, message: false });
    },

    /** Runs a job now (unless it is running already); never rejects for a failing job. */
    runNow(name: string): Promise<RunOutcome> {
      return execute(name, "manual");
    },

    isRunning(name: string): boolean {
      return jobs.get(name)?.running != null;
    },

    list() {
      return [...jobs.values()].map((j) => ({
        name: j.def.name,
        schedule: j.def.schedule,
        running: j.running !== null,
        nextRun: j.cron?.nextRun()?.toISOString() ?? null,
        lastRunAt: j.lastRunAt?.toISOString() ?? null,
        lastOutcome: j.lastOutcome,
      }));
    },
  };
}
export type JobRegistry = ReturnType<typeof createJobRegistry>;

/** The one place where the application's jobs are registered. */
export function createAppJobs(deps: {
  services: Services;
  log: Logger;
  now?: () => Date;
}): JobRegistry {
  const registry = createJobRegistry({ log: deps.log, now: deps.now });
  registry.register(reviewRemindersJob(deps.services.reminders));
  return registry;
}
