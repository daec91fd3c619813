/**
 * What the AI enhancement dialog says when a call fails (docs/messages.md "Enhancement"), from the status,
 * the body text and the Retry-After header. Pure: unit-tested in enhance-errors.test.ts.
 */
import { ENHANCE_DEFAULT_RETRY_SECONDS } from "../../src/contract/constants.ts";
import type { EnhanceResponse } from "../../src/contract/reviews.ts";
import { translate } from "../i18n/index.ts";

/** The dialog's messages, each read in the reader's language when it is shown. */
export const ENHANCE_MESSAGES = {
  get required() {
    return translate("enhance.error.required");
  },
  get tooLong() {
    return translate("enhance.error.tooLong");
  },
  get badType() {
    return translate("enhance.error.badType");
  },
  get invalid() {
    return translate("enhance.error.invalid");
  },
  get timeout() {
    return translate("enhance.error.timeout");
  },
  get unavailable() {
    return translate("enhance.error.unavailable");
  },
  get empty() {
    return translate("enhance.error.empty");
  },
  get retryLimit() {
    return translate("enhance.error.retryLimit");
  },
};

export const tooManyRequestsMessage = (seconds: number) =>
  translate("enhance.error.tooManyRequests", { seconds });

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
