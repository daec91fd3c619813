/**
 * Failed sign-ins are counted per (email, client address) in a sliding window. After MAX failures
 * the pair is refused until the oldest failure leaves the window. In memory: one process, and a
 * restart forgetting the count is acceptable for a LAN appliance.
 */
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
  return {
    /** Seconds to wait before another try, or 0 when allowed. */
    retryAfter(key: string): number {
      const list = recent(key);
      if (list.length < max) return 0;
      return Math.max(1, Math.ceil((list[0]! + windowMs - now()) / 1000));
    },
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
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
