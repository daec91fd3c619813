/**
 * Review reminders (docs/behaviour.md#constants-and-limits age thresholds), run by the review-reminders job
 * (src/jobs/review-reminders.job.ts) daily at 08:00 server time and once at start-up, for every user:
 * - a Received order delivered 14 days ago or more gets a warning, 30 days or more a critical one;
 * - a Review Rejected order rejected 3 days ago or more gets a warning, 7 days or more a critical one.
 * Ages are whole calendar days in the user's time zone (UTC when none is saved). Each threshold is
 * announced once per order: the reminders table records it, so re-running the job, or deleting the
 * notification, never sends it again. When an order has passed both thresholds before its first
 * reminder (the job was not running), only the higher one is sent. An order that has moved on to
 * another status is no longer a candidate.
 */
import type { NotificationLevel } from "../../contract/index.ts";
import { reviewLink } from "../../util/app-links.ts";
import { dayInZone } from "../../util/calendar-day.ts";
import { type NotificationMessage, part } from "../notifications/message.ts";
import type { NotificationsService } from "../notifications/notifications.service.ts";
import type { ReminderCandidate, RemindersRepo } from "./reminders.repo.ts";

type Threshold = { days: number; level: NotificationLevel };
type Rule = {
  prefix: "received" | "rejected";
  status: "Received" | "Review Rejected";
  dateField: "dateDelivered" | "dateReviewRejected";
  /** Ascending: warning, then critical. */
  thresholds: [Threshold, Threshold];
  /** The notification (in the user's language when read: server.reminder.* in locales/). */
  message: (c: ReminderCandidate, days: number, level: NotificationLevel) => NotificationMessage;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export const REMINDER_RULES: readonly Rule[] = [
  {
    prefix: "received",
    status: "Received",
    dateField: "dateDelivered",
    thresholds: [
      { days: 14, level: "warning" },
      { days: 30, level: "critical" },
    ],
    message: (c, days, level) => [
      part(
        level === "critical" ? "server.reminder.reviewOverdue" : "server.reminder.reviewDue",
        { product: c.productName, days },
        reviewLink(c.orderId),
      ),
    ],
  },
  {
    prefix: "rejected",
    status: "Review Rejected",
    dateField: "dateReviewRejected",
    thresholds: [
      { days: 3, level: "warning" },
      { days: 7, level: "critical" },
    ],
    message: (c, days, level) => [
      part(
        level === "critical" ? "server.reminder.rewriteOverdue" : "server.reminder.rewriteDue",
        { product: c.productName, days },
        reviewLink(c.orderId),
      ),
    ],
  },
];

export const reminderKind = (rule: Pick<Rule, "prefix">, t: Threshold) =>
  `${rule.prefix}-${t.days}`;

/** The calendar day (UTC midnight of YYYY-MM-DD, in ms) of an instant in a zone; UTC on a bad zone. */
function dayOf(instant: Date, timeZone: string | null): number {
  const d = dayInZone(instant, timeZone || "UTC");
  return Date.UTC(d.year, d.month - 1, d.day);
}

/**
 * Whole days from `date` to `now` in the zone: a date-only value ("2025-03-01") is that calendar
 * day; a date-time is first placed in the zone. Null when the value cannot be read.
 */
export function wholeDaysSince(date: string, now: Date, timeZone: string | null): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  let from: number;
  if (m) {
    from = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  } else {
    const t = Date.parse(date);
    if (Number.isNaN(t)) return null;
    from = dayOf(new Date(t), timeZone);
  }
  if (Number.isNaN(from)) return null;
  return Math.round((dayOf(now, timeZone) - from) / DAY_MS);
}

export type ReviewRemindersResult = { candidates: number; sent: number; kinds: string[] };

/** One pass at `now`. Safe to re-run: a threshold already recorded for an order is skipped. */
export function runReviewReminders(
  deps: { reminders: RemindersRepo; notifications: NotificationsService },
  now: Date,
): ReviewRemindersResult {
  const result: ReviewRemindersResult = { candidates: 0, sent: 0, kinds: [] };
  for (const rule of REMINDER_RULES) {
    const [first, last] = rule.thresholds;
    // Two spare days cover every zone offset and date-only values; the exact check is below.
    const before = new Date(now.getTime() - (first.days - 2) * DAY_MS).toISOString();
    const candidates = deps.reminders.candidates({
      status: rule.status,
      dateField: rule.dateField,
      before,
      finalKind: reminderKind(rule, last),
    });
    for (const c of candidates) {
      const days = wholeDaysSince(c.date, now, c.timezone);
      if (days === null) continue;
      const due = rule.thresholds.filter((t) => days >= t.days).at(-1);
      if (!due) continue;
      result.candidates++;
      // Never step back to a lower threshold (say the delivery date was edited later).
      const covered = rule.thresholds.some(
        (t) => t.days >= due.days && c.sentKinds.includes(reminderKind(rule, t)),
      );
      if (covered) continue;
      const kind = reminderKind(rule, due);
      const sent = deps.reminders.inTransaction(() => {
        if (!deps.reminders.claim(c.orderId, kind, now.toISOString())) return false;
        deps.notifications.notify(c.userId, due.level, rule.message(c, days, due.level), {
          event: due.level === "critical" ? "review_overdue" : "review_due",
          orderId: c.orderId,
        });
        return true;
      });
      if (sent) {
        result.sent++;
        result.kinds.push(`${c.orderId}:${kind}`);
      }
    }
  }
  return result;
}

export function createRemindersService(deps: {
  repo: RemindersRepo;
  notifications: NotificationsService;
}) {
  return {
    /** One pass at `now` (the job's run). */
    run: (now: Date) =>
      runReviewReminders({ reminders: deps.repo, notifications: deps.notifications }, now),
  };
}
export type RemindersService = ReturnType<typeof createRemindersService>;
