import { describe, expect, test } from "bun:test";
import { atLeast, backoffDelay } from "./backoff.ts";

describe("backoffDelay", () => {
  const server = { baseMs: 2000, maxMs: 60_000, spread: 0.2 };

  test("doubles from the base and never waits longer than the cap, jitter included", () => {
    const top = Array.from({ length: 10 }, (_, i) => backoffDelay(i, server, () => 0));
    expect(top).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000, 60000]);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(i, server, Math.random);
      expect(d).toBeLessThanOrEqual(60_000);
    }
    expect(backoffDelay(1000, server, () => 0)).toBe(60_000);
  });

  test("spread draws the wait down by up to that fraction, so retries spread out", () => {
    expect(backoffDelay(10, server, () => 0.999999)).toBe(48_000);
    expect(backoffDelay(10, server, () => 0.5)).toBe(54_000);
    expect(backoffDelay(0, server, () => 0.5)).toBe(1800);
  });

  test("addMs adds 0 to addMs on top (the web's rule)", () => {
    const web = { baseMs: 1000, maxMs: 30_000, addMs: 1000 };
    expect(backoffDelay(0, web, () => 0)).toBe(1000);
    expect(backoffDelay(0, web, () => 0.5)).toBe(1500);
    expect(backoffDelay(9, web, () => 0.999999)).toBe(30_999);
  });

  test("a negative or fractional attempt counts as its whole part, at least 0", () => {
    expect(backoffDelay(-3, server, () => 0)).toBe(2000);
    expect(backoffDelay(1.7, server, () => 0)).toBe(4000);
  });
});

describe("atLeast", () => {
  test("a server's longer pause wins; a shorter one or none leaves the backoff", () => {
    expect(atLeast(5000, 3 * 3_600_000)).toBe(3 * 3_600_000);
    expect(atLeast(5000, 1000)).toBe(5000);
    expect(atLeast(5000, null)).toBe(5000);
  });
});
