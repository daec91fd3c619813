/**
 * How the server stays small while it waits, which is most of its life (a mailbox in IDLE, no
 * browser open). Measured in bench/startup.bench.ts and bench/soak.bench.ts; README "Memory".
 *
 * 1. Start-up code runs once, so it is not worth compiling: from the first line of src/main.ts
 *    until the server has settled, JavaScriptCore's tier-up thresholds are STARTUP_JIT_SCALE
 *    times higher (`Bun.unsafe.setJITPolicy`). Then the normal policy again, so reading mail,
 *    imports and reports are compiled as before (with the start-up policy kept, the mail reader
 *    ran at half speed: bench/reader.bench.ts).
 * 2. Settled: SETTLE_QUIET_MS passed after start with no live event (a mailbox changing state, an
 *    order written by a resumed backfill), or the first request other than the health check came
 *    (someone uses it: everything at full speed from then on), or SETTLE_MAX_MS after start at
 *    the latest. Then, and every IDLE_TRIM_EVERY_MS after, a trim: a full garbage collection, and the compiled code of
 *    functions that are not running is dropped (JavaScriptCore compiles again what runs next,
 *    milliseconds). Before the periodic collections, a mostly idle server kept the garbage of the
 *    mail it read for hours: over a simulated day of mail its RSS climbed from 121 to 144 MB,
 *    with them it stayed at 113–115 MB.
 */
export const STARTUP_JIT_SCALE = 1000;
export const SETTLE_QUIET_MS = 2_000;
export const SETTLE_MAX_MS = 30_000;
export const IDLE_TRIM_EVERY_MS = 10 * 60_000;
/** Docker's health check and the start benchmark ask it while nobody uses the server. */
const HEALTH_PATH = "/api/health";

/** What the engine is asked to do; the tests count the calls. */
export type Engine = {
  /** A full garbage collection. */
  collect: () => void;
  /** Drop compiled code that is not running, when the engine is next idle. */
  dropCode: () => void;
  jitPolicy: (scale: number) => void;
};

export const bunEngine: Engine = {
  collect: () => Bun.gc(true),
  // Bun.shrink is JavaScriptCore's shrinkFootprintWhenIdle; Bun's types mark it deprecated with no
  // replacement, so it is called only while it exists (without it a trim is the collection alone).
  dropCode: () => {
    const shrink = (Bun as { shrink?: () => void }).shrink;
    if (typeof shrink === "function") shrink.call(Bun);
  },
  jitPolicy: (scale) => Bun.unsafe.setJITPolicy(scale),
};

export type Timers = {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
};

/** Real timers that never keep the process alive. */
export const realTimers: Timers = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval(fn, ms) {
    const t = setInterval(fn, ms);
    t.unref();
    return t;
  },
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/** The first thing the process does (src/main.ts): start-up code stays in the interpreter. */
export function beginStartup(engine: Engine = bunEngine): void {
  engine.jitPolicy(STARTUP_JIT_SCALE);
}

export type IdleMemory = {
  /** Something happened (a live event): until the start settles, it waits SETTLE_QUIET_MS more. */
  activity: () => void;
  /** A request for `pathname` came in: anything but the health check settles the start at once. */
  request: (pathname: string) => void;
  /** True once the start-up has settled (the normal JIT policy and the first trim). */
  settled: () => boolean;
  stop: () => void;
};

/**
 * Called as the server is about to listen (src/boot.ts). The clock of settling starts now, and
 * so do the periodic trims (the first one IDLE_TRIM_EVERY_MS from now).
 */
export function startIdleMemory(
  opts: {
    engine?: Engine;
    timers?: Timers;
    quietMs?: number;
    maxMs?: number;
    everyMs?: number;
    /** Told once, when the start has settled (after its trim). */
    onSettled?: () => void;
  } = {},
): IdleMemory {
  const engine = opts.engine ?? bunEngine;
  const timers = opts.timers ?? realTimers;
  const quietMs = opts.quietMs ?? SETTLE_QUIET_MS;
  const everyMs = opts.everyMs ?? IDLE_TRIM_EVERY_MS;
  const trim = () => {
    engine.collect();
    engine.dropCode();
  };

  let isSettled = false;
  let quiet: unknown = null;
  const settle = () => {
    if (isSettled) return;
    isSettled = true;
    if (quiet !== null) timers.clearTimeout(quiet);
    timers.clearTimeout(latest);
    quiet = null;
    engine.jitPolicy(1);
    trim();
    opts.onSettled?.();
  };
  const latest = timers.setTimeout(settle, opts.maxMs ?? SETTLE_MAX_MS);
  const waitQuiet = () => {
    if (isSettled) return;
    if (quiet !== null) timers.clearTimeout(quiet);
    quiet = timers.setTimeout(settle, quietMs);
  };
  waitQuiet();
  const periodic = timers.setInterval(trim, everyMs);

  return {
    activity: waitQuiet,
    request(pathname) {
      if (!isSettled && pathname !== HEALTH_PATH) settle();
    },
    settled: () => isSettled,
    stop() {
      if (quiet !== null) timers.clearTimeout(quiet);
      timers.clearTimeout(latest);
      timers.clearInterval(periodic);
    },
  };
}
