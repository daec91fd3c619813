import { expect, test } from "bun:test";
import {
  beginStartup,
  type Engine,
  IDLE_TRIM_EVERY_MS,
  SETTLE_MAX_MS,
  SETTLE_QUIET_MS,
  STARTUP_JIT_SCALE,
  startIdleMemory,
  type Timers,
} from "./idle-memory.ts";

/** A clock the test moves: timeouts and intervals fire when it passes them. */
function manualClock() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; fn: () => void; every?: number }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      pending.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (h) => {
      pending.delete(h as number);
    },
    setInterval: (fn, ms) => {
      pending.set(next, { at: now + ms, fn, every: ms });
      return next++;
    },
    clearInterval: (h) => {
      pending.delete(h as number);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, t] = due;
      now = t.at;
      if (t.every) t.at += t.every;
      else pending.delete(id);
      t.fn();
    }
    now = until;
  };
  return { timers, advance, pending: () => pending.size };
}

function countingEngine() {
  const calls: string[] = [];
  const engine: Engine = {
    collect: () => calls.push("collect"),
    dropCode: () => calls.push("dropCode"),
    jitPolicy: (scale) => calls.push(`jit ${scale}`),
  };
  return { engine, calls };
}

test("start-up runs with the reluctant JIT; settling restores it and trims once", () => {
  const { engine, calls } = countingEngine();
  const clock = manualClock();
  beginStartup(engine);
  expect(calls).toEqual([`jit ${STARTUP_JIT_SCALE}`]);

  const idle = startIdleMemory({ engine, timers: clock.timers });
  clock.advance(SETTLE_QUIET_MS - 1);
  expect(idle.settled()).toBe(false);
  clock.advance(1);
  expect(idle.settled()).toBe(true);
  expect(calls).toEqual([`jit ${STARTUP_JIT_SCALE}`, "jit 1", "collect", "dropCode"]);
  idle.stop();
});

test("each event before settling waits the quiet time again, up to the latest moment", () => {
  const { engine, calls } = countingEngine();
  const clock = manualClock();
  const idle = startIdleMemory({ engine, timers: clock.timers });
  // A mailbox connecting and catching up: an event every second keeps the start unsettled.
  for (let t = 0; t < 10; t++) {
    clock.advance(1_000);
    idle.activity();
  }
  expect(idle.settled()).toBe(false);
  clock.advance(SETTLE_QUIET_MS);
  expect(idle.settled()).toBe(true);
  expect(calls).toEqual(["jit 1", "collect", "dropCode"]);

  // Busy without a pause for longer than the latest moment: settled then all the same.
  const busy = countingEngine();
  const clock2 = manualClock();
  const idle2 = startIdleMemory({ engine: busy.engine, timers: clock2.timers });
  for (let t = 0; t < SETTLE_MAX_MS; t += 500) {
    clock2.advance(500);
    idle2.activity();
  }
  expect(idle2.settled()).toBe(true);
  expect(busy.calls).toEqual(["jit 1", "collect", "dropCode"]);
  idle.stop();
  idle2.stop();
});

test("a trim every ten minutes after that; events no longer matter; nothing after stop", () => {
  const { engine, calls } = countingEngine();
  const clock = manualClock();
  const idle = startIdleMemory({ engine, timers: clock.timers });
  clock.advance(SETTLE_QUIET_MS);
  calls.length = 0;
  idle.activity();
  clock.advance(SETTLE_QUIET_MS);
  expect(calls).toEqual([]);
  clock.advance(IDLE_TRIM_EVERY_MS - SETTLE_QUIET_MS * 2);
  expect(calls).toEqual(["collect", "dropCode"]);
  clock.advance(IDLE_TRIM_EVERY_MS * 2);
  expect(calls).toEqual(["collect", "dropCode", "collect", "dropCode", "collect", "dropCode"]);
  idle.stop();
  expect(clock.pending()).toBe(0);
  clock.advance(IDLE_TRIM_EVERY_MS * 3);
  expect(calls.length).toBe(6);
});

test("stopped before settling: the JIT policy and trims are left alone", () => {
  const { engine, calls } = countingEngine();
  const clock = manualClock();
  const idle = startIdleMemory({ engine, timers: clock.timers });
  idle.stop();
  expect(clock.pending()).toBe(0);
  clock.advance(SETTLE_MAX_MS + IDLE_TRIM_EVERY_MS);
  expect(calls).toEqual([]);
});

test("the first request other than the health check ends the start at once", () => {
  const { engine, calls } = countingEngine();
  const clock = manualClock();
  const idle = startIdleMemory({ engine, timers: clock.timers });
  // Docker's health check while the mailbox connects: still starting.
  idle.request("/api/health");
  expect(idle.settled()).toBe(false);
  // Someone opens the app: the JIT at full speed for what they do.
  idle.request("/orders");
  expect(idle.settled()).toBe(true);
  expect(calls).toEqual(["jit 1", "collect", "dropCode"]);
  idle.request("/api/orders");
  clock.advance(SETTLE_MAX_MS);
  expect(calls).toEqual(["jit 1", "collect", "dropCode"]);
  idle.stop();
});
