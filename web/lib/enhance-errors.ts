/**
 * What the AI enhancement dialog says when a call fails (docs/messages.md "Enhancement"), from the status,
 * the body text and the Retry-After header. Pure: unit-tested in enhance-errors.test.ts.
 */
import { ENHANCE_DEFAULT_RETRY_SECONDS } from "../../src/contract/constants.ts";
import type { EnhanceResponse } from "../../src/contract/reviews.ts";

export const ENHANCE_MESSAGES = {
  required: "Please provide content to enhance and try again.",
  tooLong: "Content is too long. Please shorten it and try again.",
  badType: "Enhancement type not supported. Please try again.",
  invalid: "Invalid content. Please check your text and try again.",
  timeout: "Enhancement is taking too long. Please try again.",
  unavailable: "Enhancement temporarily unavailable. Please try again.",
  empty: "No enhanced content received.",
  retryLimit:
    "You've reached the retry limit for this enhancement. Please try again later or check your content for any issues.",
} as const;

export const tooManyRequestsMessage = (seconds: number) =>
  `Too many requests. Please wait ${seconds} seconds and try again.`;

/**
 * Seconds from a Retry-After header: whole seconds, or an HTTP date; the default (60) when it is
 * missing or unreadable.
 */
export function retryWaitSeconds(retryAfter: string | null | undefined, now = Date.now()): number {
  const v = retryAfter?.trim();
  if (!v) return ENHANCE_DEFAULT_RETRY_SECONDS;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return ENHANCE_DEFAULT_RETRY_SECONDS;
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** The docs/messages.md message for a failed enhancement (status 0: no answer at all, e.g. offline). */
export function enhanceErrorMessage(
  status: number,
  body: string,
  retryAfter: string | null | undefined,
  now = Date.now(),
): string {
  if (status === 429) return tooManyRequestsMessage(retryWaitSeconds(retryAfter, now));
  if (status === 408) return ENHANCE_MESSAGES.timeout;
  if (status === 400) {
    const text = body.toLowerCase();
    if (text.includes("required for enhancement")) return ENHANCE_MESSAGES.required;
    if (text.includes("too long")) return ENHANCE_MESSAGES.tooLong;
    if (text.includes("invalid request type")) return ENHANCE_MESSAGES.badType;
    return ENHANCE_MESSAGES.invalid;
  }
  return ENHANCE_MESSAGES.unavailable;
}

/** True when an answer carries nothing to apply ('No enhanced content received.'). */
export function isEmptyEnhancement(r: Partial<EnhanceResponse> | null | undefined): boolean {
  return !r?.enhancedText?.trim() && !r?.enhancedSubject?.trim();
}
