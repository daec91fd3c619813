/**
 * Per-carrier gate: at most `concurrency` calls in flight (the rest wait in order), at most
 * `perHour` calls in any sliding hour (by the injected clock), and a pause until a time the
 * carrier asked for (429 Retry-After). A call that would break the quota or the pause is not made:
 * the gate answers "rate-limited" with retryAfterMs instead.
 */
import { createRateWindow } from "../util/rate-window.ts";
import { type Failure, fail } from "./http.ts";

const HOUR = 3_600_000;

export type Gate = {
  run<T>(fn: () => Promise<T>): Promise<T | Failure>;
  /** Nothing goes to the carrier before `until` (ms since the epoch). */
  pauseUntil(until: number): void;
  /** Calls waiting for a free slot, and calls in flight (for tests and logs). */
  load(): { queued: number; active: number };
};

export function createGate(opts: {
  name: string;
  concurrency: number;
  perHour?: number;
  now: () => number;
}): Gate {
  const concurrency = Math.max(1, opts.concurrency);
  let active = 0;
  const queue: (() => void)[] = [];
  const perHour = opts.perHour;
  /** Calls started within the last hour (lib/rate-window.ts, one key: the carrier). */
  const hourly = perHour
    ? createRateWindow({ limit: perHour, windowMs: HOUR, now: opts.now })
    : null;
  let pausedUntil = 0;

  const acquire = () =>
    new Promise<void>((resolve) => {
      if (active < concurrency) {
        active++;
        resolve();
      } else queue.push(resolve);
    });
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };

  /** Why the call may not be made now, or null: it is made, and counted in the hourly quota. */
  function refusal(now: number): Failure | null {
    if (now < pausedUntil) {
      const wait = pausedUntil - now;
      return fail(
        "rate-limited",
        `${opts.name} asked us to wait; next try in ${Math.ceil(wait / 1000)} s`,
        wait,
      );
    }
    const quota = hourly?.hit(opts.name);
    if (quota && !quota.ok) {
      const wait = quota.retryAfterMs;
      return fail(
        "rate-limited",
        `${opts.name} hourly quota (${perHour} look-ups) is used up; next try in ${Math.ceil(wait / 60_000)} min`,
        wait,
      );
    }
    return null;
  }

  return {
    async run(fn) {
      await acquire();
      try {
        const no = refusal(opts.now());
        if (no) return no;
        return await fn();
      } finally {
        release();
      }
    },
    pauseUntil(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
    load: () => ({ queued: queue.length, active }),
  };
}
