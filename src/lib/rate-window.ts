/**
 * The one sliding-window counter of attempts per key (in memory: one process; a restart forgets
 * the counts, which is acceptable for a LAN appliance). `hit(key)` counts an attempt and answers
 * whether it is allowed; a refused attempt is not counted, so waiting the `retryAfterMs` it gives is
 * always enough. Used by the Itemized Report uploads (reports per user per hour).
 */
export type RateWindow = {
  hit(key: string): { ok: true } | { ok: false; retryAfterMs: number };
};

export function createRateWindow(opts: {
  limit: number;
  windowMs: number;
  now?: () => number;
}): RateWindow {
  const { limit, windowMs } = opts;
  const now = opts.now ?? Date.now;
  const hits = new Map<string, number[]>();
  const recent = (key: string, t: number) => {
    const list = (hits.get(key) ?? []).filter((at) => at > t - windowMs);
    if (list.length) hits.set(key, list);
    else hits.delete(key);
    return list;
  };
  return {
    hit(key) {
      const t = now();
      const list = recent(key, t);
      if (list.length >= limit) {
        return { ok: false, retryAfterMs: Math.max(1, list[0]! + windowMs - t) };
      }
      list.push(t);
      hits.set(key, list);
      // Keys that went quiet are dropped now and then, so the map stays small.
      if (hits.size > 10_000) for (const k of [...hits.keys()]) recent(k, t);
      return { ok: true };
    },
  };
}
