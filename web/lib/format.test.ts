import { afterEach, beforeEach, describe, expect, type Mock, spyOn, test } from "bun:test";
import {
  AGE_THRESHOLDS,
  ageText,
  dateOnly,
  daysSince,
  formatBytes,
  formatDate,
  formatDateOnly,
  formatMoney,
  formatRelativeTime,
  formatTimeOnly,
  initials,
  toDate,
  urgencyLevel,
} from "./format.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Fixed "current time" for every relative computation: never the real clock. */
const NOW = new Date("2026-11-21T12:00:00.000Z");
const before = (ms: number) => new Date(NOW.getTime() - ms);
const after = (ms: number) => new Date(NOW.getTime() + ms);

let warnSpy: Mock<typeof console.warn>;
beforeEach(() => {
  warnSpy = spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  warnSpy.mockRestore();
});

describe("toDate", () => {
  test("accepts ISO strings, epoch milliseconds and Dates", () => {
    expect(toDate("2026-11-21T15:05:00Z")?.toISOString()).toBe("2026-11-21T15:05:00.000Z");
    expect(toDate(Date.UTC(2026, 10, 21))?.toISOString()).toBe("2026-11-21T00:00:00.000Z");
    expect(toDate(NOW)?.getTime()).toBe(NOW.getTime());
    expect(toDate(0)?.toISOString()).toBe("1970-01-01T00:00:00.000Z");
  });

  test("returns null for empty or invalid input", () => {
    for (const value of [null, undefined, "", "   ", "not a date", Number.NaN, Infinity]) {
      expect(toDate(value)).toBeNull();
    }
    expect(toDate(new Date("nope"))).toBeNull();
  });
});

describe("formatTimeOnly", () => {
  test("the time of day in the zone; empty is Never", () => {
    expect(formatTimeOnly("2026-11-21T15:05:00Z", "America/Chicago")).toBe("09:05 AM");
    expect(formatTimeOnly(null)).toBe("Never");
  });
});

describe("formatDate", () => {
  const value = "2026-11-21T15:05:00Z";

  test("matches the spec example", () => {
    expect(formatDate(value, "America/Chicago")).toBe("Nov 21, 2026, 09:05 AM");
  });

  test("renders the instant in the requested zone", () => {
    expect(formatDate(value, "UTC")).toBe("Nov 21, 2026, 03:05 PM");
    expect(formatDate(value, "America/New_York")).toBe("Nov 21, 2026, 10:05 AM");
    expect(formatDate(value, "America/Los_Angeles")).toBe("Nov 21, 2026, 07:05 AM");
    expect(formatDate(value, "Asia/Tokyo")).toBe("Nov 22, 2026, 12:05 AM");
    expect(formatDate(value, "Pacific/Honolulu")).toBe("Nov 21, 2026, 05:05 AM");
  });

  test("accepts numbers and Dates", () => {
    const ms = Date.parse(value);
    expect(formatDate(ms, "UTC")).toBe("Nov 21, 2026, 03:05 PM");
    expect(formatDate(new Date(ms), "UTC")).toBe("Nov 21, 2026, 03:05 PM");
  });

  test("uses 12-hour clock with two-digit hours around midnight and noon", () => {
    expect(formatDate("2026-03-05T00:00:00Z", "UTC")).toBe("Mar 5, 2026, 12:00 AM");
    expect(formatDate("2026-03-05T00:59:00Z", "UTC")).toBe("Mar 5, 2026, 12:59 AM");
    expect(formatDate("2026-03-05T12:00:00Z", "UTC")).toBe("Mar 5, 2026, 12:00 PM");
    expect(formatDate("2026-03-05T23:59:00Z", "UTC")).toBe("Mar 5, 2026, 11:59 PM");
  });

  test("crosses the year boundary according to the zone", () => {
    const instant = "2027-01-01T03:00:00Z";
    expect(formatDate(instant, "UTC")).toBe("Jan 1, 2027, 03:00 AM");
    expect(formatDate(instant, "America/New_York")).toBe("Dec 31, 2026, 10:00 PM");
    expect(formatDate("2026-12-31T20:00:00Z", "Australia/Sydney")).toBe("Jan 1, 2027, 07:00 AM");
  });

  test("follows daylight saving time", () => {
    expect(formatDate("2026-07-04T17:30:00Z", "America/Chicago")).toBe("Jul 4, 2026, 12:30 PM");
    expect(formatDate("2026-01-04T17:30:00Z", "America/Chicago")).toBe("Jan 4, 2026, 11:30 AM");
    // Phoenix does not observe DST.
    expect(formatDate("2026-07-04T17:30:00Z", "America/Phoenix")).toBe("Jul 4, 2026, 10:30 AM");
  });

  test("uses plain spaces only", () => {
    expect(formatDate(value, "UTC")).not.toMatch(/[\u202f\u00a0]/);
  });

  test("returns Never for empty or invalid values", () => {
    for (const empty of [null, undefined, "", "  ", "garbage", Number.NaN, new Date("x")]) {
      expect(formatDate(empty, "UTC")).toBe("Never");
    }
    expect(formatDate(null)).toBe("Never");
  });

  test("falls back to the default zone and warns on an invalid zone", () => {
    const result = formatDate(value, "Mars/Olympus_Mons");
    expect(result).toBe(formatDate(value));
    expect(warnSpy).toHaveBeenCalledTimes(1);
    expect(String(warnSpy.mock.calls[0]?.[0])).toContain("Mars/Olympus_Mons");
  });

  test("does not throw or warn for a missing zone", () => {
    expect(() => formatDate(value)).not.toThrow();
    expect(formatDate(value, "")).toBe(formatDate(value));
    expect(warnSpy).not.toHaveBeenCalled();
  });
});

describe("formatDateOnly", () => {
  test("shows only the date", () => {
    expect(formatDateOnly("2026-11-21T15:05:00Z", "UTC")).toBe("Nov 21, 2026");
    expect(formatDateOnly(Date.UTC(2026, 0, 5, 12), "UTC")).toBe("Jan 5, 2026");
  });

  test("uses the requested zone, including across the year boundary", () => {
    expect(formatDateOnly("2027-01-01T03:00:00Z", "UTC")).toBe("Jan 1, 2027");
    expect(formatDateOnly("2027-01-01T03:00:00Z", "America/Los_Angeles")).toBe("Dec 31, 2026");
    expect(formatDateOnly("2026-11-21T15:05:00Z", "Asia/Tokyo")).toBe("Nov 22, 2026");
  });

  test("returns Never for empty values", () => {
    expect(formatDateOnly(null)).toBe("Never");
    expect(formatDateOnly(undefined, "UTC")).toBe("Never");
    expect(formatDateOnly("", "UTC")).toBe("Never");
    expect(formatDateOnly("not a date", "UTC")).toBe("Never");
  });

  test("falls back on an invalid zone", () => {
    expect(formatDateOnly("2026-11-21T15:05:00Z", "Not/AZone_DateOnly")).toBe(
      formatDateOnly("2026-11-21T15:05:00Z"),
    );
    expect(warnSpy).toHaveBeenCalledTimes(1);
  });
});

describe("formatRelativeTime", () => {
  test("returns Never for empty values", () => {
    expect(formatRelativeTime(null, NOW)).toBe("Never");
    expect(formatRelativeTime(undefined, NOW)).toBe("Never");
    expect(formatRelativeTime("", NOW)).toBe("Never");
    expect(formatRelativeTime("bogus", NOW)).toBe("Never");
  });

  test("is Just now under one minute", () => {
    expect(formatRelativeTime(NOW, NOW)).toBe("Just now");
    expect(formatRelativeTime(before(59 * SECOND), NOW)).toBe("Just now");
    expect(formatRelativeTime(before(MINUTE - 1), NOW)).toBe("Just now");
  });

  test("counts whole minutes from 60 seconds up to 59 minutes", () => {
    expect(formatRelativeTime(before(60 * SECOND), NOW)).toBe("1m ago");
    expect(formatRelativeTime(before(119 * SECOND), NOW)).toBe("1m ago");
    expect(formatRelativeTime(before(5 * MINUTE), NOW)).toBe("5m ago");
    expect(formatRelativeTime(before(59 * MINUTE), NOW)).toBe("59m ago");
    expect(formatRelativeTime(before(HOUR - 1), NOW)).toBe("59m ago");
  });

  test("counts whole hours from 60 minutes up to 23 hours", () => {
    expect(formatRelativeTime(before(60 * MINUTE), NOW)).toBe("1h ago");
    expect(formatRelativeTime(before(119 * MINUTE), NOW)).toBe("1h ago");
    expect(formatRelativeTime(before(23 * HOUR), NOW)).toBe("23h ago");
    expect(formatRelativeTime(before(DAY - 1), NOW)).toBe("23h ago");
  });

  test("uses the full date from 24 hours on", () => {
    expect(formatRelativeTime(before(24 * HOUR), NOW, "UTC")).toBe("Nov 20, 2026, 12:00 PM");
    expect(formatRelativeTime(before(24 * HOUR), NOW, "America/Chicago")).toBe(
      "Nov 20, 2026, 06:00 AM",
    );
    expect(formatRelativeTime("2025-12-31T23:30:00Z", NOW, "UTC")).toBe("Dec 31, 2025, 11:30 PM");
  });

  test("treats the near future as Just now and the further future as a date", () => {
    expect(formatRelativeTime(after(1), NOW)).toBe("Just now");
    expect(formatRelativeTime(after(59 * SECOND), NOW)).toBe("Just now");
    expect(formatRelativeTime(after(60 * SECOND), NOW, "UTC")).toBe("Nov 21, 2026, 12:01 PM");
    expect(formatRelativeTime(after(3 * HOUR), NOW, "UTC")).toBe("Nov 21, 2026, 03:00 PM");
  });

  test("accepts strings and epoch milliseconds", () => {
    expect(formatRelativeTime("2026-11-21T11:55:00Z", NOW)).toBe("5m ago");
    expect(formatRelativeTime(NOW.getTime() - 2 * HOUR, NOW)).toBe("2h ago");
  });

  test("falls back on an invalid zone for old times", () => {
    const old = before(3 * DAY);
    expect(formatRelativeTime(old, NOW, "Invalid/Relative_Zone")).toBe(formatDate(old));
    expect(warnSpy).toHaveBeenCalledTimes(1);
  });
});

describe("daysSince", () => {
  test("counts whole elapsed days, rounding down", () => {
    expect(daysSince(NOW, NOW)).toBe(0);
    expect(daysSince(before(DAY - 1), NOW)).toBe(0);
    expect(daysSince(before(DAY), NOW)).toBe(1);
    expect(daysSince(before(2 * DAY - 1), NOW)).toBe(1);
    expect(daysSince(before(30 * DAY), NOW)).toBe(30);
  });

  test("works across year boundaries and leap days", () => {
    expect(daysSince("2026-12-31T12:00:00Z", new Date("2027-01-01T12:00:00Z"))).toBe(1);
    expect(daysSince("2026-01-01T00:00:00Z", new Date("2027-01-01T00:00:00Z"))).toBe(365);
    expect(daysSince("2028-01-01T00:00:00Z", new Date("2029-01-01T00:00:00Z"))).toBe(366);
    expect(daysSince("2028-02-28T00:00:00Z", new Date("2028-03-01T00:00:00Z"))).toBe(2);
  });

  test("is negative for future values", () => {
    expect(daysSince(after(1), NOW)).toBe(-1);
    expect(daysSince(after(2 * DAY), NOW)).toBe(-2);
  });

  test("accepts strings and numbers", () => {
    expect(daysSince("2026-11-14T12:00:00Z", NOW)).toBe(7);
    expect(daysSince(NOW.getTime() - 3 * DAY, NOW)).toBe(3);
  });

  test("returns null for empty or invalid values", () => {
    expect(daysSince(null, NOW)).toBeNull();
    expect(daysSince(undefined, NOW)).toBeNull();
    expect(daysSince("", NOW)).toBeNull();
    expect(daysSince("yesterday", NOW)).toBeNull();
    expect(daysSince(NOW, new Date("bad"))).toBeNull();
  });
});

describe("ageText", () => {
  const ageAt = (days: number) => ageText(before(days * DAY), NOW);

  test.each([
    [0, "Today"],
    [1, "1 day ago"],
    [2, "2 days ago"],
    [6, "6 days ago"],
    [7, "1 week ago"],
    [13, "1 week ago"],
    [14, "2 weeks ago"],
    [20, "2 weeks ago"],
    [21, "3 weeks ago"],
    [29, "3 weeks ago"],
    [30, "1 month ago"],
    [59, "1 month ago"],
    [60, "2 months ago"],
    [89, "2 months ago"],
    [90, "3 months ago"],
    [365, "12 months ago"],
  ])("%i days → %s", (days, expected) => {
    expect(ageAt(days)).toBe(expected);
  });

  test("uses whole days only", () => {
    expect(ageText(before(DAY - 1), NOW)).toBe("Today");
    expect(ageText(before(7 * DAY - 1), NOW)).toBe("6 days ago");
    expect(ageText(before(30 * DAY - 1), NOW)).toBe("3 weeks ago");
  });

  test("treats future values as Today", () => {
    expect(ageText(after(HOUR), NOW)).toBe("Today");
    expect(ageText(after(10 * DAY), NOW)).toBe("Today");
  });

  test("works across the year boundary", () => {
    expect(ageText("2026-12-25T00:00:00Z", new Date("2027-01-01T00:00:00Z"))).toBe("1 week ago");
  });

  test("returns Never for empty values", () => {
    expect(ageText(null, NOW)).toBe("Never");
    expect(ageText(undefined, NOW)).toBe("Never");
    expect(ageText("", NOW)).toBe("Never");
    expect(ageText("nope", NOW)).toBe("Never");
  });
});

describe("urgencyLevel", () => {
  test("exposes the spec thresholds", () => {
    expect(AGE_THRESHOLDS).toEqual({
      global: { warning: 14, critical: 30 },
      received: { warning: 14, critical: 30 },
      reviewSubmitted: { warning: 7, critical: 21 },
      reviewRejected: { warning: 3, critical: 7 },
    });
  });

  test("defaults to the global thresholds", () => {
    expect(urgencyLevel(0)).toBe("normal");
    expect(urgencyLevel(13)).toBe("normal");
    expect(urgencyLevel(14)).toBe("warning");
    expect(urgencyLevel(29)).toBe("warning");
    expect(urgencyLevel(30)).toBe("critical");
    expect(urgencyLevel(400)).toBe("critical");
  });

  test.each([
    ["global", 14, 30],
    ["received", 14, 30],
    ["reviewSubmitted", 7, 21],
    ["reviewRejected", 3, 7],
  ] as const)("%s: warning at %i, critical at %i", (kind, warning, critical) => {
    expect(urgencyLevel(warning - 1, kind)).toBe("normal");
    expect(urgencyLevel(warning, kind)).toBe("warning");
    expect(urgencyLevel(critical - 1, kind)).toBe("warning");
    expect(urgencyLevel(critical, kind)).toBe("critical");
    expect(urgencyLevel(critical + 1, kind)).toBe("critical");
  });

  test("is normal for null, negative or NaN days", () => {
    expect(urgencyLevel(null)).toBe("normal");
    expect(urgencyLevel(null, "reviewRejected")).toBe("normal");
    expect(urgencyLevel(-5, "reviewRejected")).toBe("normal");
    expect(urgencyLevel(Number.NaN)).toBe("normal");
  });

  test("composes with daysSince", () => {
    expect(urgencyLevel(daysSince(before(7 * DAY), NOW), "reviewRejected")).toBe("critical");
    expect(urgencyLevel(daysSince(before(7 * DAY - 1), NOW), "reviewRejected")).toBe("warning");
    expect(urgencyLevel(daysSince(null, NOW), "reviewRejected")).toBe("normal");
  });
});

describe("initials", () => {
  test("takes the first letter of the first two words, upper-cased", () => {
    expect(initials("jane q doe")).toBe("JQ");
    expect(initials("Jane Doe")).toBe("JD");
    expect(initials("Cher")).toBe("C");
    expect(initials("  ada   lovelace  ")).toBe("AL");
    expect(initials("émile\tzola")).toBe("ÉZ");
  });

  test("returns ? for empty names", () => {
    expect(initials("")).toBe("?");
    expect(initials("   ")).toBe("?");
    expect(initials(null)).toBe("?");
    expect(initials(undefined)).toBe("?");
  });
});

describe("formatMoney", () => {
  test("in the order's currency, with that currency's decimals", () => {
    expect(formatMoney("19.99", "GBP")).toBe("£19.99");
    expect(formatMoney("34.90", "EUR")).toBe("€34.90");
    expect(formatMoney("1980.00", "JPY")).toBe("¥1,980");
    expect(formatMoney("32.99", "CAD")).toBe("CA$32.99");
    expect(formatMoney("45", "AUD")).toBe("A$45.00");
    expect(formatMoney("24.99", "USD")).toBe("$24.99");
    expect(formatMoney(0, "EUR")).toBe("€0.00");
  });

  test("formats numbers with two decimals", () => {
    expect(formatMoney(12.5)).toBe("$12.50");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(3)).toBe("$3.00");
    expect(formatMoney(1.005)).toMatch(/^\$1\.0[01]$/);
    expect(formatMoney(9.999)).toBe("$10.00");
  });

  test("formats numeric strings, stripping $ and commas", () => {
    expect(formatMoney("12.5")).toBe("$12.50");
    expect(formatMoney("$12.50")).toBe("$12.50");
    expect(formatMoney(" $7 ")).toBe("$7.00");
    expect(formatMoney("1,234.5")).toBe("$1,234.50");
    expect(formatMoney("$1,234,567")).toBe("$1,234,567.00");
    expect(formatMoney(".75")).toBe("$0.75");
  });

  test("keeps the sign of negative amounts", () => {
    expect(formatMoney(-4.25)).toBe("-$4.25");
    expect(formatMoney("-$4.25")).toBe("-$4.25");
    expect(formatMoney(-0.001)).toBe("$0.00");
  });

  test("returns an empty string for empty or non-numeric input", () => {
    for (const value of [null, undefined, "", "  ", "$", "abc", "12abc", "1.2.3", "--5"]) {
      expect(formatMoney(value)).toBe("");
    }
    expect(formatMoney(Number.NaN)).toBe("");
    expect(formatMoney(Infinity)).toBe("");
  });
});

describe("dateOnly", () => {
  test("reads the date part as numbers, without any zone conversion", () => {
    expect(dateOnly("2026-11-21")).toEqual({ year: 2026, month: 11, day: 21 });
    expect(dateOnly("2026-01-01T00:00:00Z")).toEqual({ year: 2026, month: 1, day: 1 });
    expect(dateOnly("2026-12-31T23:59:59.999-05:00")).toEqual({ year: 2026, month: 12, day: 31 });
  });

  test("throws on an empty string", () => {
    expect(() => dateOnly("")).toThrow("Invalid date string");
  });

  test("throws on a malformed date", () => {
    for (const value of [
      "2026-xx-21",
      "abc",
      "2026-11",
      "T12:00:00",
      "2026-11-21-01",
      "2026--21",
    ]) {
      expect(() => dateOnly(value)).toThrow("Invalid date format");
    }
  });
});

describe("formatBytes", () => {
  test.each([
    [0, "0 B"],
    [1, "1 B"],
    [512, "512 B"],
    [1023, "1023 B"],
    [1024, "1.0 KB"],
    [1536, "1.5 KB"],
    [1024 * 1024 - 1, "1.0 MB"],
    [2 * 1024 * 1024, "2.0 MB"],
    [1.2 * 1024 ** 3, "1.2 GB"],
    [5 * 1024 ** 4, "5.0 TB"],
  ])("%d → %s", (n, expected) => {
    expect(formatBytes(n)).toBe(expected);
  });

  test("treats negative and non-finite sizes as 0 B", () => {
    expect(formatBytes(-1)).toBe("0 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
    expect(formatBytes(Infinity)).toBe("0 B");
  });
});
