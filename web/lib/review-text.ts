/**
 * The review text's word count and its colour against the target (docs/behaviour.md#validation,
 * docs/behaviour.md#constants-and-limits); the subject's limit is `REVIEW_SUBJECT_MAX` of the
 * contract. Pure.
 */

export const DEFAULT_TARGET_WORDS = 150;
export const WORD_BANDS = { good: 0.15, fair: 0.3 } as const;

export function wordCount(text: string | null | undefined): number {
  const t = (text ?? "").trim();
  return t ? t.split(/\s+/).length : 0;
}

/** green within 15 % of the target, yellow within 30 %, red otherwise. */
export type WordBand = "good" | "fair" | "poor";

export function wordBand(count: number, target: number = DEFAULT_TARGET_WORDS): WordBand {
  if (!(target > 0)) return "good";
  const off = Math.abs(count - target) / target;
  if (off <= WORD_BANDS.good + 1e-9) return "good";
  if (off <= WORD_BANDS.fair + 1e-9) return "fair";
  return "poor";
}
