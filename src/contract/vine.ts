/** Vine standing: settings, standing, the Itemized Report import and the ETV export. */
import { z } from "zod";
import { says } from "./errors.ts";
import type { TextValue } from "./text.ts";
import { RATE_RULES, type RateRule, VINE_TIERS } from "./vine-constants.ts";

export * from "./vine-constants.ts";

const whole = (name: string, min: number, max: number) => {
  const message = says("whole_number_range", { name, min, max });
  return z
    .number({ error: () => message })
    .int(message)
    .min(min, message)
    .max(max, message);
};

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar day "YYYY-MM-DD". */
export function isCalendarDay(v: string): boolean {
  const m = DAY_RE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= 2000 && y <= 2999 && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

const evaluationDay = (name: string) =>
  z
    .union([z.string(), z.null()], {
      error: () => says("date_or_null", { name }),
    })
    .transform((v) => (v === null || v.trim() === "" ? null : v.trim()))
    .refine((v) => v === null || isCalendarDay(v), says("date_or_null", { name }));

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const timeOfDay = (name: string) =>
  z
    .string({ error: () => says("time_of_day", { name }) })
    .transform((v) => v.trim())
    .refine((v) => TIME_RE.test(v), says("time_of_day", { name }));

/**
 * PUT /api/user/vine-settings: any subset; what is not sent keeps its saved value. The evaluation
 * dates are checked after merging (an end needs a start; the start not after the end).
 */
export const vineSettingsBody = z
  .strictObject(
    {
      tier: z.enum(VINE_TIERS, {
        error: () => says("name_one_of", { name: "tier", values: VINE_TIERS.join(", ") }),
      }),
      rateWindowDays: whole("rateWindowDays", 1, 366),
      rateMinimum: whole("rateMinimum", 1, 100),
      evaluationStart: evaluationDay("evaluationStart"),
      evaluationEnd: evaluationDay("evaluationEnd"),
      evaluationStartTime: timeOfDay("evaluationStartTime"),
      evaluationEndTime: timeOfDay("evaluationEndTime"),
      rateRule: z.enum(RATE_RULES, {
        error: () => says("name_one_of", { name: "rateRule", values: RATE_RULES.join(", ") }),
      }),
      goldItems: whole("goldItems", 1, 10000),
      goldPercent: whole("goldPercent", 1, 100),
      dailyLimitSilver: whole("dailyLimitSilver", 1, 1000),
      dailyLimitGold: whole("dailyLimitGold", 1, 1000),
    },
    {
      error: (iss) =>
        iss.code === "unrecognized_keys"
          ? says("vine_setting_unknown", { keys: iss.keys.join(", ") })
          : undefined,
    },
  )
  .partial()
  .refine((o) => Object.keys(o).length > 0, says("nothing_to_update_setting"));
export type VineSettingsBody = z.infer<typeof vineSettingsBody>;

/** A rate as Vine counts it (README, "Vine standing"): `rule` says which count. */
export type VineRate = {
  rule: RateRule;
  /** The denominator: items delivered ("2025") or ordered ("legacy"). */
  counted: number;
  /** The numerator: reviews approved ("2025") or submitted and approved ("legacy"). */
  reviewed: number;
  /** "2025": reviews submitted and not yet approved among `counted` (0 under "legacy"). */
  pending: number;
  /** Whole percent rounded DOWN, as Vine shows it (89.7 → 89); null when `counted` is 0. */
  percent: number | null;
  /** One decimal, rounded down (89.76 → 89.7); null when `counted` is 0. */
  exact: number | null;
  /** `percent` once every pending review is approved; null when none is pending. */
  withPending: number | null;
};

/** GET /api/vine/standing (definitions in the README, "Vine standing"). */
export type VineStanding = {
  reviewRate: VineRate & {
    windowDays: number;
    /** Orders (counting) dated in the window, whatever their status. */
    ordered: number;
    minimum: number;
    /** How many more reviews (approved under "2025") bring `percent` to `minimum`; 0 when met. */
    reviewsToMinimum: number;
  };
  evaluation:
    | (VineRate & {
        /** The period in the user's zone: days and "HH:MM" times. */
        start: string;
        startTime: string;
        end: string;
        endTime: string;
        /** How many periods were rolled on past the saved one (0: the saved period). */
        rolled: number;
        /** True when the end was not saved: start + 6 months. */
        defaultEnd: boolean;
        ordered: number;
        goldItems: number;
        goldPercent: number;
        /** More reviews (approved under "2025") that reach goldPercent (0 when met). */
        reviewsNeeded: number;
        onTrack: boolean;
        /**
         * At the pace so far, at the period's end: reviews, items and percent as low–high ranges
         * (equal when rounding does not decide); null before a day of the period has passed.
         */
        projection: {
          reviews: [number, number];
          counted: [number, number];
          percent: [number, number];
        } | null;
      })
    | null;
  /** Orders placed today (order date, else the day their mail arrived) against the daily limit. */
  today: { ordered: number; limit: number };
  awaitingApproval: { count: number; oldestDays: number | null };
  /**
   * Per calendar year and currency, newest year first. `total` (in the currency, 2 decimals) and
   * `orders` leave Canceled orders out; `months` is `total` per month, January first.
   * `threshold1099`: for a US reviewer's USD year, the 1099-NEC reporting threshold of that year
   * ($600 through 2025, $2,000 from 2026), else null. Information, not tax advice.
   */
  etv: {
    year: number;
    currency: string;
    total: number;
    orders: number;
    canceled: number;
    months: number[];
    threshold1099: number | null;
  }[];
};

/** POST /api/vine/itemized-report answer. Rows are numbered as in the spreadsheet. */
/**
 * POST /api/vine/itemized-report's answer. Every report row is in exactly one bucket:
 * rows = created + updated + canceled + unchanged + skipped (blank rows are not rows).
 */
/**
 * A report row that could not be read: `message` in English, and the same as a catalog id and
 * its values (src/contract/text.ts), for the reader's language.
 */
export type ReportRowError = {
  row: number;
  message: string;
  messageCode?: string;
  messageValues?: Record<string, TextValue>;
};

export type ItemizedReportSummary = {
  rows: number;
  /** New orders (not canceled). */
  created: number;
  /** Orders the report changed (ETV, order date, ASIN, Shipped), not canceled. */
  updated: number;
  /** Orders the report canceled, new or known. */
  canceled: number;
  unchanged: number;
  /** Rows that could not be read; each has its sentence in `errors`. */
  skipped: number;
  errors: ReportRowError[];
  /** The row that held the headers (1-based, as the spreadsheet numbers it). */
  headerRow: number;
  /** How the dates were written and read ("DD/MM/YYYY", "Excel dates", …); null without dates. */
  dateForm: string | null;
};

/** GET /api/vine/etv.csv?year=YYYY */
export const etvCsvQuery = z.object({
  year: z
    .string({ error: () => says("year_required") })
    .regex(/^\d{4}$/, says("year_invalid"))
    .transform(Number)
    .refine((y) => y >= 2000 && y <= 2999, says("year_invalid")),
});
