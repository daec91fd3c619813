/**
 * The one backoff rule of the app, shared by the server (mailbox supervisor, backfill runner) and
 * the web (live-event stream): the wait before retry number `attempt` (0-based) is
 * `baseMs · 2^attempt`, capped at `maxMs`, with jitter so that many clients that lost the same
 * server do not come back at the same instant:
 *
 * - `spread` (0–1) draws the wait down by up to that fraction (`0.2`: 80–100 % of it), so the cap
 *   stays a cap: a network fault is retried at least every `maxMs`;
 * - `addMs` adds 0–`addMs` ms on top (the web's rule of docs/behaviour.md#constants-and-limits).
 *
 * A server that asks for a longer pause (Gmail's THROTTLED, LIMIT, bandwidth limits) is honoured
 * with `atLeast`, outside this rule. Pure: `random` is injectable for tests.
 */
export type BackoffPolicy = {
  baseMs: number;
  maxMs: number;
  /** Jitter downwards: the wait is drawn from (1 − spread)·w … w. */
  spread?: number;
  /** Jitter upwards: 0 … addMs ms are added. */
  addMs?: number;
};

/** The wait before retry number `attempt` (0-based), jitter included. */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const n = Math.min(Math.max(0, Math.floor(attempt)), 40);
  const base = Math.min(policy.maxMs, policy.baseMs * 2 ** n);
  const spread = Math.min(1, Math.max(0, policy.spread ?? 0));
  const down = spread > 0 ? Math.round(base * (1 - spread * random())) : base;
  return down + (policy.addMs ? Math.floor(random() * policy.addMs) : 0);
}

/** The wait, but never shorter than what the server asked for (`askedMs`, when it asked). */
export function atLeast(delayMs: number, askedMs: number | null | undefined): number {
  return askedMs && askedMs > delayMs ? askedMs : delayMs;
}
