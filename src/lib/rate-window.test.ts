import { describe, expect, test } from "bun:test";
import { createRateWindow } from "./rate-window.ts";

describe("createRateWindow", () => {
  test("allows `limit` hits per key in the window, then says how long to wait", () => {
    let t = 1_000_000;
    const w = createRateWindow({ limit: 3, windowMs: 60_000, now: () => t });
    expect(w.hit("a")).toEqual({ ok: true });
    t += 10_000;
    expect(w.hit("a")).toEqual({ ok: true });
    expect(w.hit("a")).toEqual({ ok: true });
    expect(w.hit("b")).toEqual({ ok: true }); // another key has its own count
    expect(w.hit("a")).toEqual({ ok: false, retryAfterMs: 50_000 });
    t += 49_999;
    expect(w.hit("a")).toEqual({ ok: false, retryAfterMs: 1 });
    t += 1; // the first hit leaves the window: one more is allowed, not more
    expect(w.hit("a")).toEqual({ ok: true });
    expect(w.hit("a").ok).toBe(false);
  });

  test("refused hits are not counted", () => {
    let t = 0;
    const w = createRateWindow({ limit: 1, windowMs: 1000, now: () => t });
    expect(w.hit("k").ok).toBe(true);
    for (let i = 0; i < 10; i++) expect(w.hit("k").ok).toBe(false);
    t = 1000;
    expect(w.hit("k").ok).toBe(true);
  });

  test("many keys: stale ones are dropped, live ones kept", () => {
    let t = 0;
    const w = createRateWindow({ limit: 1, windowMs: 1000, now: () => t });
    expect(w.hit("keep").ok).toBe(true);
    for (let i = 0; i < 20_000; i++) w.hit(`k${i}`);
    expect(w.hit("keep").ok).toBe(false);
    t = 5000;
    for (let i = 0; i < 20_000; i++) expect(w.hit(`k${i}`).ok).toBe(true);
  });
});
