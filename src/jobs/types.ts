/** What a job is (src/jobs/registry.ts runs them). */
import type { Logger } from "../log.ts";

export type JobContext = { now: Date; log: Logger };

export type JobDefinition = {
  /** Unique, kebab-case: used in logs and by runNow. */
  name: string;
  /** A croner pattern in server time, e.g. "0 8 * * *" for 08:00 every day. */
  schedule: string;
  /** Also run once when the registry starts (without delaying the start). */
  runAtStart?: boolean;
  /** Its return value is logged as the run's result; keep it small (counts). */
  run: (ctx: JobContext) => unknown;
};
