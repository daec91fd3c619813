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

describe("createRateWindow: counting what happened", () => {
  test("add counts past the limit; check answers when enough hits have left the window", () => {
    let t = 0;
    const w = createRateWindow({ limit: 2, windowMs: 1000, now: () => t });
    w.add("k");
    t = 100;
    w.add("k");
    t = 200;
    w.add("k"); // three in the window, limit two
    expect(w.count("k")).toBe(3);
    // Allowed again once two of the three have left: at 1100, not at 1000.
    expect(w.check("k")).toEqual({ ok: false, retryAfterMs: 900 });
    expect(w.check("k", 4)).toEqual({ ok: true }); // a higher limit for this question
    t = 1000;
    expect(w.check("k")).toEqual({ ok: false, retryAfterMs: 100 });
    t = 1100;
    expect(w.check("k")).toEqual({ ok: true });
    expect(w.count("k")).toBe(1);
  });

  test("undo takes back the latest hit, clear forgets the key", () => {
    let t = 0;
    const w = createRateWindow({ limit: 1, windowMs: 1000, now: () => t });
    expect(w.hit("k").ok).toBe(true);
    expect(w.hit("k").ok).toBe(false);
    w.undo("k");
    expect(w.count("k")).toBe(0);
    expect(w.hit("k").ok).toBe(true);
    t = 10;
    w.clear("k");
    expect(w.hit("k").ok).toBe(true);
  });
});
