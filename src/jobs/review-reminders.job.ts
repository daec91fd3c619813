/** The review-reminders job: the rules are in src/features/reminders/reminders.service.ts. */
import type { RemindersService } from "../features/reminders/reminders.service.ts";
import type { JobDefinition } from "./types.ts";

export const REVIEW_REMINDERS_JOB = "review-reminders";
/** 08:00 every day, server time. */
export const REVIEW_REMINDERS_SCHEDULE = "0 8 * * *";

export function reviewRemindersJob(reminders: Pick<RemindersService, "run">): JobDefinition {
  return {
    name: REVIEW_REMINDERS_JOB,
    schedule: REVIEW_REMINDERS_SCHEDULE,
    runAtStart: true,
    run: ({ now }) => {
      const r = reminders.run(now);
      // The log gets counts only, not which orders.
      return { candidates: r.candidates, sent: r.sent };
    },
  };
}
