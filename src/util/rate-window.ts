/**
 * The one sliding-window counter: at most `limit` hits per key in any `windowMs`. In memory (one
 * process; a restart forgets the counts, acceptable for a LAN appliance). Keys whose hits have all
 * left the window are dropped when the map grows, so it stays small whatever the callers send.
 *
 * `hit` counts only what it allows (a quota: sign-ups per address, alert-channel tests per user,
 * AI enhancements and Itemized Report uploads per user and hour, carrier look-ups per hour,
 * mailbox reconnects per user). `check` + `add` count what happened whatever the limit (failed
 * password checks: features/auth/login-throttle.ts), `undo` takes one back.
 */

export type RateHit = { ok: true } | { ok: false; retryAfterMs: number };

/** Keys kept before a sweep drops the ones with no hit left in the window. */
const SWEEP_AT = 10_000;

export function createRateWindow(opts: { limit: number; windowMs: number; now?: () => number }) {
  const { windowMs } = opts;
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
  /** Refused while `limit` or more hits are in the window: until enough of them have left it. */
  const verdict = (list: number[], t: number, limit: number): RateHit =>
    list.length < limit
      ? { ok: true }
      : {
          ok: false,
          retryAfterMs: Math.max(1, (list[list.length - limit] as number) + windowMs - t),
        };
  const record = (key: string, list: number[], t: number) => {
    if (list.length === 0) {
      if (hits.size >= sweepAt) {
        for (const k of [...hits.keys()]) recent(k, t);
        // Amortised: the next sweep waits until the map has doubled again.
        sweepAt = Math.max(SWEEP_AT, hits.size * 2);
      }
      hits.set(key, list);
    }
    list.push(t);
  };
  return {
    /** Counts a hit for `key`, or refuses it (uncounted) with the wait until one is allowed. */
    hit(key: string): RateHit {
      const t = now();
      const list = recent(key, t);
      const v = verdict(list, t, opts.limit);
      if (v.ok) record(key, list, t);
      return v;
    },
    /** Whether a hit would be allowed now (`limit` overrides the window's), without counting. */
    check(key: string, limit = opts.limit): RateHit {
      const t = now();
      return verdict(recent(key, t), t, limit);
    },
    /** Counts a hit whatever the limit. */
    add(key: string): void {
      const t = now();
      record(key, recent(key, t), t);
    },
    /** Takes back the latest hit (one counted in advance that turned out not to count). */
    undo(key: string): void {
      const list = recent(key, now());
      list.pop();
      if (list.length === 0) hits.delete(key);
    },
    /** Hits of `key` in the window. */
    count: (key: string): number => recent(key, now()).length,
    clear(key: string): void {
      hits.delete(key);
    },
  };
}
export type RateWindow = ReturnType<typeof createRateWindow>;
