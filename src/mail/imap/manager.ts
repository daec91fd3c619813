/**
 * The mailbox manager: the process's set of supervisors (one per connected user), and the
 * attempt budgets of the two user actions (manual reconnect, retry real-time monitoring).
 *
 * - `startAll` at boot starts a supervisor for every connected account.
 * - `stop(userId)` on Disconnect and before an account is deleted; `stopAll` at shutdown, before
 *   the database closes.
 * - A supervisor that throws is contained by the supervisor itself; the manager also guards every
 *   call so that one user's trouble never reaches another user or the process.
 */

import type { Logger } from "../../log.ts";
import { createRateWindow } from "../../util/rate-window.ts";
import type { Supervisor } from "./supervisor.ts";

export function createMailboxManager(deps: {
  log: Logger;
  /** Builds (does not start) the supervisor of a user. */
  create: (userId: number) => Supervisor;
  /** User ids of the connected accounts, for startAll. */
  connectedUsers: () => number[];
}) {
  const supervisors = new Map<number, Supervisor>();
  let shuttingDown = false;

  function start(userId: number): Supervisor | null {
    if (shuttingDown) return null;
    let sup = supervisors.get(userId);
    try {
      if (!sup) {
        sup = deps.create(userId);
        supervisors.set(userId, sup);
      }
      sup.start();
    } catch (err) {
      deps.log.error({ err, userid: userId }, "could not start the mailbox supervisor");
    }
    return sup ?? null;
  }

  async function stop(userId: number) {
    const sup = supervisors.get(userId);
    if (!sup) return;
    supervisors.delete(userId);
    try {
      await sup.stop();
    } catch (err) {
      deps.log.error({ err, userid: userId }, "stopping the mailbox supervisor failed");
    }
  }

  return {
    start,
    stop,
    get: (userId: number): Supervisor | undefined => supervisors.get(userId),
    /** Starts a supervisor for every connected account; returns how many. */
    startAll(): number {
      let ids: number[] = [];
      try {
        ids = deps.connectedUsers();
      } catch (err) {
        deps.log.error({ err }, "cannot list connected mailboxes");
      }
      for (const id of ids) start(id);
      return ids.length;
    },
    async stopAll() {
      shuttingDown = true;
      await Promise.all([...supervisors.keys()].map((id) => stop(id)));
    },
    size: () => supervisors.size,
  };
}
export type MailboxManager = ReturnType<typeof createMailboxManager>;

// ---------------------------------------------------------------------------------------------
// Attempt budgets.

export type AttemptLimits = {
  /** At most `windowMax` attempts in any `windowMs`. */
  windowMs: number;
  windowMax: number;
  /** And at most `dailyMax` in any 24 hours. */
  dailyMax: number;
};

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = {
  windowMs: 15 * 60_000,
  windowMax: 3,
  dailyMax: 20,
};

const DAY_MS = 24 * 60 * 60 * 1000;

export type AttemptBudget = {
  remaining: { window: number; daily: number };
  /** When the next attempt is allowed, or null when one is allowed now. */
  nextAttemptTime: Date | null;
  /** Which limit is exhausted, if any. */
  blockedBy: "window" | "daily" | null;
};

/** Two sliding windows per user (lib/rate-window.ts; in memory: a restart gives a fresh budget). */
export function createAttemptLimiter(limits: AttemptLimits, now: () => Date = () => new Date()) {
  const clock = () => now().getTime();
  const short = createRateWindow({
    limit: limits.windowMax,
    windowMs: limits.windowMs,
    now: clock,
  });
  const daily = createRateWindow({ limit: limits.dailyMax, windowMs: DAY_MS, now: clock });

  function budget(userId: number): AttemptBudget {
    const key = String(userId);
    const remaining = {
      window: Math.max(0, limits.windowMax - short.count(key)),
      daily: Math.max(0, limits.dailyMax - daily.count(key)),
    };
    const day = daily.check(key);
    const win = short.check(key);
    if (!day.ok) {
      return {
        remaining,
        nextAttemptTime: new Date(clock() + day.retryAfterMs),
        blockedBy: "daily",
      };
    }
    if (!win.ok) {
      return {
        remaining,
        nextAttemptTime: new Date(clock() + win.retryAfterMs),
        blockedBy: "window",
      };
    }
    return { remaining, nextAttemptTime: null, blockedBy: null };
  }

  return {
    budget,
    /** Records an attempt when the budget allows it; returns the budget as it was before. */
    take(userId: number): { allowed: boolean; budget: AttemptBudget } {
      const b = budget(userId);
      if (b.blockedBy) return { allowed: false, budget: b };
      short.add(String(userId));
      daily.add(String(userId));
      return { allowed: true, budget: b };
    },
    reset(userId: number) {
      short.clear(String(userId));
      daily.clear(String(userId));
    },
  };
}
export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
