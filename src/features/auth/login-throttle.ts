/**
 * Failed password checks are counted per key in a sliding window. After MAX failures the key is
 * refused (429 with Retry-After) until the oldest failure leaves the window. In memory: one
 * process, and a restart forgetting the count is acceptable for a LAN appliance.
 *
 * One throttle, several kinds of keys (THROTTLE_KEYS): sign-in per (email, client address); the
 * current password of a signed-in user (password change, email change, account deletion) per
 * account, whatever the address, so a stolen session token cannot guess the password; refused
 * registrations (email taken, registration closed) per client address.
 */
import { AppError } from "../../lib/errors.ts";

export const THROTTLE_KEYS = {
  signIn: (email: string, ip: string | null) => `login|${email}|${ip ?? "?"}`,
  password: (userId: number) => `password|${userId}`,
  register: (ip: string | null) => `register|${ip ?? "?"}`,
};

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export function createLoginThrottle(
  max = LOGIN_MAX_FAILURES,
  windowMs = LOGIN_WINDOW_MS,
  now: () => number = Date.now,
) {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const cutoff = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  /** Seconds to wait before another try, or 0 when allowed. */
  const retryAfter = (key: string): number => {
    const list = recent(key);
    if (list.length < max) return 0;
    return Math.max(1, Math.ceil((list[0]! + windowMs - now()) / 1000));
  };
  return {
    retryAfter,
    fail(key: string) {
      const list = recent(key);
      list.push(now());
      failures.set(key, list);
      if (failures.size > 10_000) {
        for (const k of failures.keys()) recent(k);
      }
    },
    clear(key: string) {
      failures.delete(key);
    },
    /** Throws 429 "Too many <what>. Try again in N minutes." with Retry-After when refused. */
    assertAllowed(key: string, what: string) {
      const wait = retryAfter(key);
      if (wait <= 0) return;
      const minutes = Math.ceil(wait / 60);
      throw new AppError(
        429,
        `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        undefined,
        { "Retry-After": String(wait) },
      );
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
