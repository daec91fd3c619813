import { afterEach, describe, expect, test } from "bun:test";
import { setLanguage } from "../i18n/index.ts";
import {
  barHeights,
  evaluationLine,
  form1099Line,
  formatAmount,
  formatDay,
  monthNames,
  pendingLine,
  periodText,
  projectionLine,
  rateState,
  span,
  supportMessage,
  toMinimumLine,
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
  const rate = { percent: 60, minimum: 60 };
  expect(rateState(rate)).toBe("ok");
  expect(rateState({ ...rate, percent: 59 })).toBe("low");
  expect(rateState({ ...rate, percent: null })).toBeNull();
  const ev = { end: "2026-11-30", percent: 70, goldPercent: 90, reviewsNeeded: 2 };
  expect(evaluationLine(ev)).toBe("Review 2 more by Nov 30, 2026");
  expect(evaluationLine({ ...ev, reviewsNeeded: 0, percent: 95 })).toBe(
    "Gold review rate reached: 95% of 90%",
  );
  expect(barHeights([0, 5, 10])).toEqual([0, 0.5, 1]);
  expect(barHeights([0, 0])).toEqual([0, 0]);
});

test("the standing's sentences: pending, to the minimum, projection, period, 1099-NEC", () => {
  const rate = { rule: "2025" as const, pending: 3, percent: 89, withPending: 92 };
  expect(pendingLine(rate)).toBe("92% once 3 pending reviews are approved");
  expect(pendingLine({ ...rate, pending: 1 })).toBe("92% once 1 pending review is approved");
  expect(pendingLine({ ...rate, pending: 0, withPending: null })).toBeNull();
  const min = { rule: "2025" as const, percent: 55, minimum: 60, reviewsToMinimum: 3 };
  expect(toMinimumLine(min)).toBe("3 more approved reviews reach 60%");
  expect(toMinimumLine({ ...min, rule: "legacy", reviewsToMinimum: 1 })).toBe(
    "1 more review reaches 60%",
  );
  expect(toMinimumLine({ ...min, reviewsToMinimum: 0 })).toBeNull();
  expect(span([48, 49])).toBe("48–49");
  expect(span([48, 48])).toBe("48");
  expect(
    projectionLine({
      rule: "2025",
      end: "2027-03-31",
      projection: { reviews: [48, 49], counted: [53, 54], percent: [88, 92] },
    }),
  ).toBe("At your pace so far, by Mar 31, 2027: 48–49 reviews of 53–54 delivered items, 88–92%");
  expect(
    periodText({ start: "2026-10-01", startTime: "09:00", end: "2027-03-31", endTime: "18:00" }),
  ).toBe("Oct 1, 2026 09:00 – Mar 31, 2027 18:00");
  expect(form1099Line(2025, 412.5, 600)).toBe(
    "$412.50 of the $600 1099-NEC reporting threshold for 2025 ($187.50 below it)",
  );
  expect(form1099Line(2026, 2000, 2000)).toBe(
    "$2,000.00: at or above the $2,000 1099-NEC reporting threshold for 2026",
  );
});

describe("in the reader's language", () => {
  afterEach(() => setLanguage("en"));

  test("German: the support message, days, money, percents and plurals", async () => {
    await setLanguage("de");
    const text = supportMessage({
      amazonordernumber: "302-1234567-7654321",
      asin: null,
      productname: "Solarlampe",
      reason: "damaged",
      note: "Glas gesprungen",
    });
    expect(text.split("\n")).toEqual([
      "Hallo Vine-Support,",
      "",
      "ich kann einen Artikel, den ich über Amazon Vine bestellt habe, nicht rezensieren. Bitte entfernen Sie ihn aus meiner Liste der zu rezensierenden Artikel.",
      "",
      "Bestellnummer: 302-1234567-7654321",
      "ASIN: (unbekannt)",
      "Produkt: Solarlampe",
      "Grund: Beschädigt angekommen",
      "Details: Glas gesprungen",
      "",
      "Vielen Dank.",
    ]);
    expect(formatDay("2026-12-24")).toBe("24. Dez. 2026");
    expect(formatAmount(1234.5, "EUR")).toBe("1.234,50\u00a0€");
    const rate = { rule: "2025" as const, pending: 1, percent: 89, withPending: 92 };
    expect(pendingLine(rate)).toBe("92\u00a0%, sobald 1 offene Rezension freigegeben ist");
    expect(toMinimumLine({ rule: "legacy", percent: 55, minimum: 60, reviewsToMinimum: 3 })).toBe(
      "Noch 3 Rezensionen bis 60\u00a0%",
    );
    expect(
      evaluationLine({ end: "2026-11-30", percent: 70, goldPercent: 90, reviewsNeeded: 1 }),
    ).toBe("Noch 1 Rezension bis 30. Nov. 2026");
    expect(monthNames()[2]).toBe("Mär");
  });

  test("Japanese: one plural form, Japanese dates and yen", async () => {
    await setLanguage("ja");
    expect(formatDay("2026-12-24")).toBe("2026年12月24日");
    expect(formatAmount(4990, "JPY")).toBe("￥4,990");
    expect(toMinimumLine({ rule: "2025", percent: 55, minimum: 60, reviewsToMinimum: 2 })).toBe(
      "あと2件の承認済みレビューで60%",
    );
    expect(monthNames("narrow")[9]).toBe("10月");
  });
});
