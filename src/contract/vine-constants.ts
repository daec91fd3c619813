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

export type VineSettings = {
  tier: VineTier;
  /** The review rate looks at orders of the last this many days (today included). */
  rateWindowDays: number;
  /** Percent. */
  rateMinimum: number;
  /** YYYY-MM-DD; both null = no evaluation view. */
  evaluationStart: string | null;
  evaluationEnd: string | null;
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
  goldItems: 80,
  goldPercent: 90,
  dailyLimitSilver: 3,
  dailyLimitGold: 8,
};
