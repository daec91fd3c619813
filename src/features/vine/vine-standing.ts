/**
 * The Vine standing as Vine's account page counts it (definitions also in the README,
 * "Vine standing", and on the Vine page under "How this is counted"). Pure: settings, the order
 * rows, the zone and the clock in, the standing out.
 *
 * - An order's day is its `dateordered` (a bare YYYY-MM-DD as it is, an instant as its calendar
 *   day in the user's zone), or without one the day it was added. An order *counts* when it is
 *   neither Canceled nor review-exempt (removed from the review list by Vine support).
 * - The rate rule ("2025", the default; Vine's account page since 2025): reviews **approved**
 *   over items **delivered** (Received or later), a whole percent rounded DOWN (89.7% is 89%,
 *   below Gold's 90%); `pending` = reviews submitted, not yet approved; `withPending` = the percent
 *   once they are. The "legacy" rule (before 2025): reviews submitted or approved over items
 *   ordered, rounded down the same way.
 * - reviewRate: counting orders of the last `rateWindowDays` days, today included;
 *   `reviewsToMinimum` = how many more reviews bring the percent to the minimum.
 * - evaluation: the same over the evaluation period, from the start day and time to the end day
 *   and time in the user's zone. Without a saved end the period is six months (its last day the
 *   day before start + 6 months); once it has ended, the next period starts the day after and is
 *   six months long, and so on until the one holding today. An order dated by a bare day belongs to
 *   the period when its day is within the period's days. `projection`: the period's counts so far
 *   (reviews approved or pending) scaled by its length over the time passed, low–high where
 *   rounding decides.
 * - today: orders placed today: dated today, or without an order date, created by a mail that
 *   arrived today (an order typed or imported without an order date is not today's).
 * - awaitingApproval: orders in Review Submitted; `oldestDays` = whole days since the oldest
 *   submission.
 * - etv: per calendar year of the order's day and currency: `total` and `orders` without Canceled
 *   orders, which are counted in `canceled`; `months` = total per month; `threshold1099` for a US
 *   reviewer's USD years.
 */
import type {
  OrderStatus,
  RateRule,
  VineRate,
  VineSettings,
  VineStanding,
} from "../../contract/index.ts";
import { EVALUATION_MONTHS, form1099Threshold } from "../../contract/vine-constants.ts";
import { isoDayInZone, offsetMs } from "../../util/calendar-day.ts";
import type { StandingRow } from "./vine.repo.ts";

const DAY_MS = 86_400_000;
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const DELIVERED: ReadonlySet<string> = new Set<OrderStatus>([
  "Received",
  "Review Submitted",
  "Review Approved",
  "Review Rejected",
]);
const SUBMITTED_OR_APPROVED: ReadonlySet<string> = new Set<OrderStatus>([
  "Review Submitted",
  "Review Approved",
]);
/** Received and not (or no longer) reviewed: what reviewing can still turn into reviews. */
const REVIEWABLE: ReadonlySet<string> = new Set<OrderStatus>(["Received", "Review Rejected"]);

/** Counts toward a rate; `reviewable` = what reviewing could still add. */
type Tally = {
  ordered: number;
  counted: number;
  reviewed: number;
  pending: number;
  reviewable: number;
};
const emptyTally = (): Tally => ({
  ordered: 0,
  counted: 0,
  reviewed: 0,
  pending: 0,
  reviewable: 0,
});

function tallyRow(t: Tally, status: string, rule: RateRule) {
  t.ordered++;
  if (rule === "legacy") {
    t.counted++;
    if (SUBMITTED_OR_APPROVED.has(status)) t.reviewed++;
    else if (REVIEWABLE.has(status)) t.reviewable++;
    return;
  }
  if (!DELIVERED.has(status)) return;
  t.counted++;
  if (status === "Review Approved") t.reviewed++;
  else if (status === "Review Submitted") t.pending++;
  else t.reviewable++;
}

/** Whole percent rounded down; exact to one decimal rounded down (integer arithmetic). */
export const floorPercent = (n: number, d: number): number | null =>
  d === 0 ? null : Math.floor((n * 100) / d);
const floorTenth = (n: number, d: number): number | null =>
  d === 0 ? null : Math.floor((n * 1000) / d) / 10;

/** The fewest more reviews after which floor(reviews / counted) reaches `percent` (0 when met). */
export const reviewsToReach = (reviewed: number, counted: number, percent: number): number =>
  Math.max(0, Math.ceil((percent * counted) / 100) - reviewed);

function rateOf(t: Tally, rule: RateRule): VineRate {
  return {
    rule,
    counted: t.counted,
    reviewed: t.reviewed,
    pending: t.pending,
    percent: floorPercent(t.reviewed, t.counted),
    exact: floorTenth(t.reviewed, t.counted),
    withPending: t.pending > 0 ? floorPercent(t.reviewed + t.pending, t.counted) : null,
  };
}

const parseDay = (day: string): [number, number, number] =>
  day.split("-").map(Number) as [number, number, number];

export function addDays(day: string, n: number): string {
  const [y, m, d] = parseDay(day);
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The same day `n` months on, clamped to the month's last day (Aug 31 + 6 months = Feb 28/29). */
export function addMonthsToDay(day: string, n: number): string {
  const [y, m, d] = parseDay(day);
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** The instant of a wall-clock day and "HH:MM" in the zone (`endOfMinute`: its last ms). */
function wallInstant(day: string, time: string, zone: string, endOfMinute = false): number {
  const [y, m, d] = parseDay(day);
  const [hh, mm] = time.split(":").map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const t = wall - offsetMs(wall - offsetMs(wall, zone), zone);
  return endOfMinute ? t + 59_999 : t;
}

export type Period = {
  start: string;
  startTime: string;
  end: string;
  endTime: string;
  rolled: number;
  defaultEnd: boolean;
  from: number;
  to: number;
};

/** The evaluation period holding `now` (see the header); null without a saved start. */
export function currentPeriod(s: VineSettings, zone: string, now: Date): Period | null {
  if (!s.evaluationStart) return null;
  let start = s.evaluationStart;
  const defaultEnd = !s.evaluationEnd;
  let end = s.evaluationEnd ?? addDays(addMonthsToDay(start, EVALUATION_MONTHS), -1);
  let rolled = 0;
  const t = now.getTime();
  // A bounded walk: 2 periods a year, a start from year 2000 on.
  while (wallInstant(end, s.evaluationEndTime, zone, true) < t && rolled < 2000) {
    start = addDays(end, 1);
    end = addDays(addMonthsToDay(start, EVALUATION_MONTHS), -1);
    rolled++;
  }
  return {
    start,
    startTime: s.evaluationStartTime,
    end,
    endTime: s.evaluationEndTime,
    rolled,
    defaultEnd,
    from: wallInstant(start, s.evaluationStartTime, zone),
    to: wallInstant(end, s.evaluationEndTime, zone, true),
  };
}

/** The row's ordered instant (ms) and day, or only the day for a bare-day order date. */
function orderedAt(row: StandingRow): { day: string | null; t: number | null } {
  const d = row.dateOrdered;
  if (d && DAY_ONLY.test(d)) return { day: d, t: null };
  const t = Date.parse(d ?? "");
  return { day: null, t: Number.isNaN(t) ? Date.parse(row.createdAt) : t };
}

/** Reviews, items and percent at the period's end at the pace so far (see the header). */
function project(t: Tally, p: Period, now: number, rule: RateRule) {
  const elapsed = now - p.from;
  if (elapsed < DAY_MS) return null;
  const scale = (p.to + 1 - p.from) / elapsed;
  const range = (v: number): [number, number] => [Math.floor(v * scale), Math.ceil(v * scale)];
  // Pending reviews are counted as approved: the projection assumes they will be.
  const reviews = range(rule === "2025" ? t.reviewed + t.pending : t.reviewed);
  const counted = range(t.counted);
  const pct = (r: number, c: number) => (c === 0 ? 0 : Math.min(100, Math.floor((r * 100) / c)));
  const low = pct(reviews[0], counted[1]);
  const high = pct(reviews[1], Math.max(counted[0], reviews[1]));
  return { reviews, counted, percent: [Math.min(low, high), high] as [number, number] };
}

export function computeStanding(input: {
  settings: VineSettings;
  rows: readonly StandingRow[];
  zone: string;
  now: Date;
  dayOf: (row: StandingRow) => string;
  /** The user's Vine marketplace (null: not known yet, the US default). */
  marketplace: string | null;
}): VineStanding {
  const { settings: s, rows, zone, now, dayOf } = input;
  const rule = s.rateRule;
  const today = isoDayInZone(now, zone);
  const windowStart = addDays(today, -(s.rateWindowDays - 1));
  const period = currentPeriod(s, zone, now);
  const mailDayOf = (iso: string) => {
    const t = Date.parse(iso);
    return Number.isNaN(t) ? null : isoDayInZone(new Date(t), zone);
  };

  const rate = emptyTally();
  const ev = emptyTally();
  let todayOrdered = 0;
  let awaiting = 0;
  let oldestSubmitted = Number.POSITIVE_INFINITY;
  const etv = new Map<
    string,
    VineStanding["etv"][number] & { cents: number; monthCents: number[] }
  >();
  const usReviewer = input.marketplace === null || input.marketplace === "US";

  for (const r of rows) {
    const day = dayOf(r);
    if (r.status === "Review Submitted") {
      awaiting++;
      const t = Date.parse(r.dateReviewSubmitted ?? "");
      if (!Number.isNaN(t) && t < oldestSubmitted) oldestSubmitted = t;
    }
    const year = Number(day.slice(0, 4));
    const key = `${year}|${r.currency}`;
    let e = etv.get(key);
    if (!e) {
      e = {
        year,
        currency: r.currency,
        total: 0,
        orders: 0,
        canceled: 0,
        months: [],
        threshold1099: usReviewer && r.currency === "USD" ? form1099Threshold(year) : null,
        cents: 0,
        monthCents: Array(12).fill(0),
      };
      etv.set(key, e);
    }
    if (r.status === "Canceled") e.canceled++;
    else {
      e.orders++;
      e.cents += r.valueCents ?? 0;
      const m = Number(day.slice(5, 7)) - 1;
      e.monthCents[m] = (e.monthCents[m] ?? 0) + (r.valueCents ?? 0);
    }

    if (r.status === "Canceled" || r.reviewExempt) continue;
    // Placed today: the order date's day, else the day its mail arrived; never the day it was added.
    const placed = r.dateOrdered ? day : r.mailDate ? mailDayOf(r.mailDate) : null;
    if (placed === today) todayOrdered++;
    if (day >= windowStart && day <= today) tallyRow(rate, r.status, rule);
    if (period) {
      const at = orderedAt(r);
      const inPeriod =
        at.t === null
          ? at.day !== null && at.day >= period.start && at.day <= period.end
          : at.t >= period.from && at.t <= period.to;
      if (inPeriod) tallyRow(ev, r.status, rule);
    }
  }

  let evaluation: VineStanding["evaluation"] = null;
  if (period) {
    const needed = reviewsToReach(ev.reviewed, ev.counted, s.goldPercent);
    // Reviewing what is received (and, under "2025", approvals of what is pending) is what can
    // still be reached by the period's end from the items already in it.
    const reachable = ev.reviewed + ev.pending + ev.reviewable;
    evaluation = {
      ...rateOf(ev, rule),
      start: period.start,
      startTime: period.startTime,
      end: period.end,
      endTime: period.endTime,
      rolled: period.rolled,
      defaultEnd: period.defaultEnd,
      ordered: ev.ordered,
      goldItems: s.goldItems,
      goldPercent: s.goldPercent,
      reviewsNeeded: needed,
      onTrack:
        (floorPercent(reachable, ev.counted) ?? 0) >= s.goldPercent && reachable >= s.goldItems,
      projection: project(ev, period, now.getTime(), rule),
    };
  }

  return {
    reviewRate: {
      ...rateOf(rate, rule),
      windowDays: s.rateWindowDays,
      ordered: rate.ordered,
      minimum: s.rateMinimum,
      reviewsToMinimum: reviewsToReach(rate.reviewed, rate.counted, s.rateMinimum),
    },
    evaluation,
    today: {
      ordered: todayOrdered,
      limit: s.tier === "Gold" ? s.dailyLimitGold : s.dailyLimitSilver,
    },
    awaitingApproval: {
      count: awaiting,
      oldestDays: Number.isFinite(oldestSubmitted)
        ? Math.max(0, Math.floor((now.getTime() - oldestSubmitted) / DAY_MS))
        : null,
    },
    etv: [...etv.values()]
      .sort((a, b) => b.year - a.year || a.currency.localeCompare(b.currency))
      .map(({ cents, monthCents, ...e }) => ({
        ...e,
        total: cents / 100,
        months: monthCents.map((c) => c / 100),
      })),
  };
}
