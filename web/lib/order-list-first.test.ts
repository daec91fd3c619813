import { describe, expect, test } from "bun:test";
import { firstCardCount } from "./order-list-first.ts";

describe("firstCardCount", () => {
  test("a phone (390x844) draws the three cards it shows and one more", () => {
    expect(firstCardCount({ width: 390, height: 844 })).toBe(4);
  });

  test("a laptop (1280x900) draws the six it shows and one more", () => {
    expect(firstCardCount({ width: 1280, height: 900 })).toBe(7);
  });

  test("a tall screen draws as many as it can show", () => {
    expect(firstCardCount({ width: 1440, height: 2560 })).toBe(23);
  });

  test("a tiny or unknown viewport still draws two", () => {
    expect(firstCardCount({ width: 0, height: 0 })).toBe(2);
  });
});
