/**
 * Failed password checks are counted per key in a sliding window (lib/rate-window.ts). After MAX
 * failures the key is refused (429 with Retry-After) until enough failures have left the window. In memory: one
 * process, and a restart forgetting the count is acceptable for a LAN appliance.
 *
 * One throttle, several kinds of keys (THROTTLE_KEYS): sign-in per (email, client address), and
 * per account across addresses (ACCOUNT_MAX_FAILURES: more addresses do not buy more guesses;
 * addresses that signed in to the account before are not held by it, so an attack slows the
 * account down without locking its owner out); the current password of a signed-in user
 * (password change, email change, account deletion) per account, whatever the address, so a
 * stolen session token cannot guess the password; refused registrations (email taken,
 * registration closed) per client address.
 */
import type { ErrorCode } from "../../contract/errors.ts";
import { AppError } from "../../util/errors.ts";
import { createRateWindow } from "../../util/rate-window.ts";

export const THROTTLE_KEYS = {
  signIn: (email: string, ip: string | null) => `login|${email}|${ip ?? "?"}`,
  /** Every sign-in to one email, whatever the address (unknown emails count the same way). */
  account: (email: string) => `account|${email}`,
  password: (userId: number) => `password|${userId}`,
  register: (ip: string | null) => `register|${ip ?? "?"}`,
};

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins to one account from addresses it was never signed in from, per window. */
export const ACCOUNT_MAX_FAILURES = 10;
/** How long an address that signed in to an account stays known to it (in memory). */
const KNOWN_FOR_MS = 30 * 24 * 3600 * 1000;
const KNOWN_MAX = 10_000;

export function createLoginThrottle(
  max = LOGIN_MAX_FAILURES,
  windowMs = LOGIN_WINDOW_MS,
  now: () => number = Date.now,
) {
  const failures = createRateWindow({ limit: max, windowMs, now });
  /** `email|address` → when it last signed in (oldest first: a Map keeps insertion order). */
  const known = new Map<string, number>();
  /** Seconds to wait before another try, or 0 when allowed. */
  const retryAfter = (key: string, limit = max): number => {
    const v = failures.check(key, limit);
    return v.ok ? 0 : Math.max(1, Math.ceil(v.retryAfterMs / 1000));
  };
  return {
    retryAfter,
    fail: failures.add,
    clear: failures.clear,
    /** Takes back one counted failure (an attempt counted in advance that succeeded). */
    forgive: failures.undo,
    /** Remembers that `ip` signed in to (or signed up as) `email`. */
    remember(email: string, ip: string | null) {
      if (ip === null) return;
      const k = `${email}|${ip}`;
      known.delete(k);
      known.set(k, now());
      if (known.size > KNOWN_MAX) known.delete(known.keys().next().value as string);
    },
    /** True when `ip` signed in to `email` within KNOWN_FOR_MS. */
    isKnown(email: string, ip: string | null): boolean {
      if (ip === null) return false;
      const at = known.get(`${email}|${ip}`);
      return at !== undefined && now() - at < KNOWN_FOR_MS;
    },
    /**
     * Throws 429 "Too many <what>. Try again in N minutes." with Retry-After when `key` has
     * `limit` failures in the window.
     */
    assertAllowed(key: string, code: ThrottleCode, limit = max) {
      const wait = retryAfter(key, limit);
      if (wait <= 0) return;
      const minutes = Math.ceil(wait / 60);
      throw new AppError(429, code, { minutes }, undefined, { "Retry-After": String(wait) });
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/** The 429 sentences of the throttle, one per thing counted. */
export type ThrottleCode = Extract<ErrorCode, `too_many_${string}`>;
