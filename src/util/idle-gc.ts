/**
 * A full garbage collection every `everyMs` (10 minutes in the server) for as long as the process
 * runs. JavaScriptCore collects when the program allocates; a server that mostly waits (a mailbox
 * in IDLE, a message every few minutes) allocates slowly, so the garbage of each message read
 * stayed resident for hours: over a simulated day of mail the server's RSS climbed from 121 to
 * 144 MB, while with a full collection every hour it stayed at 113–115 MB
 * (bench/soak.bench.ts). A full collection of this heap takes a few milliseconds.
 */
export type IntervalTimers = {
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
};

const realTimers: IntervalTimers = {
  setInterval(fn, ms) {
    const t = setInterval(fn, ms);
    // Never what keeps the process alive.
    t.unref();
    return t;
  },
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export const IDLE_GC_EVERY_MS = 10 * 60_000;

/** Starts the collections; returns the function that stops them. */
export function startIdleCollections(
  everyMs = IDLE_GC_EVERY_MS,
  collect: () => void = () => Bun.gc(true),
  timers: IntervalTimers = realTimers,
): () => void {
  const handle = timers.setInterval(collect, everyMs);
  return () => timers.clearInterval(handle);
}
