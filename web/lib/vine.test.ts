import { describe, expect, test } from "bun:test";
import {
  barHeights,
  evaluationLine,
  formatAmount,
  formatDay,
  rateState,
  supportMessage,
} from "./vine.ts";

describe("support message", () => {
  test("names the order, ASIN, product and reason; the note only when written", () => {
    const base = {
      amazonordernumber: "112-1234567-7654321",
      asin: "B0ABCDEFGH",
      productname: "  Solar Lantern ",
      reason: "not-received" as const,
      note: "",
    };
    const text = supportMessage(base);
    expect(text.split("\n")).toEqual([
      "Hello Vine Support,",
      "",
      "I cannot review an item I ordered through Amazon Vine. Please remove it from my review list.",
      "",
      "Order number: 112-1234567-7654321",
      "ASIN: B0ABCDEFGH",
      "Product: Solar Lantern",
      "Reason: Not received",
      "",
      "Thank you.",
    ]);
    expect(supportMessage({ ...base, note: " Tracking stopped ", reason: "other" })).toContain(
      "Reason: Other\nDetails: Tracking stopped\n",
    );
    expect(supportMessage({ ...base, amazonordernumber: null, asin: " " })).toContain(
      "Order number: (not known)\nASIN: (not known)",
    );
  });
});

test("days, amounts, rate state, evaluation line, bars", () => {
  expect(formatDay("2026-12-31")).toBe("Dec 31, 2026");
  expect(formatDay("2027-01-01")).toBe("Jan 1, 2027");
  expect(formatAmount(1234.5, "USD")).toBe("$1,234.50");
  expect(formatAmount(30, "EUR")).toBe("€30.00");
  expect(formatAmount(3, "NOT-A-CODE")).toBe("3.00 NOT-A-CODE");
  const rate = { windowDays: 90, ordered: 10, reviewed: 6, percent: 60, minimum: 60 };
  expect(rateState(rate)).toBe("ok");
  expect(rateState({ ...rate, percent: 59.9 })).toBe("low");
  expect(rateState({ ...rate, percent: null })).toBeNull();
  const ev = {
    start: "2026-06-01",
    end: "2026-11-30",
    ordered: 10,
    reviewed: 7,
    percent: 70,
    goldItems: 80,
    goldPercent: 90,
    reviewsNeeded: 2,
    onTrack: true,
  };
  expect(evaluationLine(ev)).toBe("Review 2 more by Nov 30, 2026");
  expect(evaluationLine({ ...ev, reviewsNeeded: 0, percent: 95 })).toBe(
    "Gold review rate reached: 95% of 90%",
  );
  expect(barHeights([0, 5, 10])).toEqual([0, 0.5, 1]);
  expect(barHeights([0, 0])).toEqual([0, 0]);
});
