import { expect, test } from "bun:test";
import { createRateWindow } from "./rate-window.ts";

test("a sliding window: the limit per key, the wait until the oldest hit leaves, refusals not counted", () => {
  let t = 0;
  const w = createRateWindow({ limit: 2, windowMs: 1000, now: () => t });
  expect(w.hit("a")).toEqual({ ok: true });
  t = 400;
  expect(w.hit("a")).toEqual({ ok: true });
  expect(w.hit("b")).toEqual({ ok: true });
  t = 500;
  expect(w.hit("a")).toEqual({ ok: false, retryAfterMs: 500 });
  expect(w.hit("a")).toEqual({ ok: false, retryAfterMs: 500 });
  t = 1000; // the first hit (at 0) has left the window
  expect(w.hit("a")).toEqual({ ok: true });
  expect(w.hit("a")).toEqual({ ok: false, retryAfterMs: 400 });
});
