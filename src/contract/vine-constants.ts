/**
 * Vine standing's plain constants and types, shared by server and browser. No zod here (like
 * constants.ts): web/ imports values from this file and types from vine.ts.
 */
export const VINE_TIERS = ["Silver", "Gold"] as const;
export type VineTier = (typeof VINE_TIERS)[number];

/** Why Amazon will not get a review of an order (Edit Order → "Can't review"). */
export const CANT_REVIEW_REASONS = [
  "not-received",
  "damaged",
  "not-as-described",
  "removed-from-amazon",
  "other",
] as const;
export type CantReviewReason = (typeof CANT_REVIEW_REASONS)[number];
export const CANT_REVIEW_LABELS: Record<CantReviewReason, string> = {
  "not-received": "Not received",
  damaged: "Arrived damaged",
  "not-as-described": "Not as described",
  "removed-from-amazon": "Removed from Amazon",
  other: "Other",
};

/**
 * How the review rate is counted: "2025" is Vine's account page since 2025 (approved
 * reviews over delivered items, a whole percent rounded down); "legacy" the older rule (reviews
 * submitted over items ordered), for a marketplace that still shows it.
 */
export const RATE_RULES = ["2025", "legacy"] as const;
export type RateRule = (typeof RATE_RULES)[number];
/** The rule's name in the settings, and what it counts. */
export const RATE_RULE_HINTS: Record<RateRule, string> = {
  "2025": "Approved reviews over delivered items",
  legacy: "Submitted reviews over ordered items",
};
export const RATE_RULE_LABELS: Record<RateRule, string> = {
  "2025": "Since 2025",
  legacy: "Before 2025",
};

/** Months of an evaluation period when no end is saved, and when one period rolls on to the next. */
export const EVALUATION_MONTHS = 6;

/**
 * The US 1099-NEC reporting threshold for a year's payments (information only): $600
 * through 2025, $2,000 for payments from 2026 on.
 */
export const form1099Threshold = (year: number): number => (year >= 2026 ? 2000 : 600);

export type VineSettings = {
  tier: VineTier;
  /** The review rate looks at orders of the last this many days (today included). */
  rateWindowDays: number;
  /** Percent. */
  rateMinimum: number;
  /**
   * YYYY-MM-DD; a null start = no evaluation view. A null end = the day before
   * start + EVALUATION_MONTHS months.
   */
  evaluationStart: string | null;
  evaluationEnd: string | null;
  /** "HH:MM" in the user's zone, as Vine's account page shows the period's start and end. */
  evaluationStartTime: string;
  evaluationEndTime: string;
  rateRule: RateRule;
  goldItems: number;
  /** Percent. */
  goldPercent: number;
  dailyLimitSilver: number;
  dailyLimitGold: number;
};

/** Today's US values; a user without saved settings has these. */
export const DEFAULT_VINE_SETTINGS: VineSettings = {
  tier: "Silver",
  rateWindowDays: 90,
  rateMinimum: 60,
  evaluationStart: null,
  evaluationEnd: null,
  evaluationStartTime: "00:00",
  evaluationEndTime: "23:59",
  rateRule: "2025",
  goldItems: 80,
  goldPercent: 90,
  dailyLimitSilver: 3,
  dailyLimitGold: 8,
};

/** The English column headers of Amazon's Itemized Report (src/features/vine/itemized-report.ts). */
export const REPORT_HEADERS = [
  "Order Number",
  "ASIN",
  "Product Name",
  "Order Type",
  "Order Date",
  "Shipped Date",
  "Cancelled Date",
  "Estimated Tax Value",
] as const;
