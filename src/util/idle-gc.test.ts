import { expect, test } from "bun:test";
import { type IntervalTimers, startIdleCollections } from "./idle-gc.ts";

test("a full collection on every tick of the interval, none after stop", () => {
  let tick: (() => void) | null = null;
  let every = 0;
  const timers: IntervalTimers = {
    setInterval: (fn, ms) => {
      tick = fn;
      every = ms;
      return 1;
    },
    clearInterval: () => {
      tick = null;
    },
  };
  let collections = 0;
  const stop = startIdleCollections(600_000, () => collections++, timers);
  expect(every).toBe(600_000);
  expect(collections).toBe(0);
  tick!();
  tick!();
  expect(collections).toBe(2);
  stop();
  expect(tick).toBeNull();
});
