/**
 * The one sliding-window counter: at most `limit` hits per key in any `windowMs`. A refused hit is
 * not counted, and says how long until the oldest counted one leaves the window. In memory (one
 * process; a restart forgets the counts, acceptable for a LAN appliance). Keys whose hits have all
 * left the window are dropped when the map grows, so it stays small whatever the callers send.
 *
 * Used for sign-ups per address (features/auth), alert-channel tests per user (features/alerts),
 * AI enhancements per user and hour (features/reviews/enhance.service.ts) and Itemized Report
 * uploads per user and hour (features/vine).
 */

export type RateHit = { ok: true } | { ok: false; retryAfterMs: number };

/** Keys kept before a sweep drops the ones with no hit left in the window. */
const SWEEP_AT = 10_000;

export function createRateWindow(opts: { limit: number; windowMs: number; now?: () => number }) {
  const { limit, windowMs } = opts;
  const now = opts.now ?? Date.now;
  const hits = new Map<string, number[]>();
  let sweepAt = SWEEP_AT;
  const recent = (key: string, t: number): number[] => {
    const list = hits.get(key);
    if (!list) return [];
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= t - windowMs) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length === 0) hits.delete(key);
    return list;
  };
  return {
    /** Counts a hit for `key`, or refuses it with the wait until one is allowed again. */
    hit(key: string): RateHit {
      const t = now();
      const list = recent(key, t);
      if (list.length >= limit) {
        return { ok: false, retryAfterMs: Math.max(1, (list[0] as number) + windowMs - t) };
      }
      if (list.length === 0) {
        if (hits.size >= sweepAt) {
          for (const k of [...hits.keys()]) recent(k, t);
          // Amortised: the next sweep waits until the map has doubled again.
          sweepAt = Math.max(SWEEP_AT, hits.size * 2);
        }
        hits.set(key, list);
      }
      list.push(t);
      return { ok: true };
    },
  };
}
export type RateWindow = ReturnType<typeof createRateWindow>;
