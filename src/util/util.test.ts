import { describe, expect, test } from "bun:test";
import { dayDiff, isoDayInZone, startOfDayInZone } from "./calendar-day.ts";
import { RETRY_AFTER_MAX_MS, retryAfterMs } from "./retry-after.ts";
import { canonicalTimeZone, isValidTimeZone } from "./time-zone.ts";

const h = (o: Record<string, string>) => new Headers(o);

describe("retryAfterMs", () => {
  test("retry-after-ms, delta-seconds, HTTP dates; null when absent or unreadable", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(h({ "retry-after-ms": "2500", "retry-after": "9" }), now)).toBe(2500);
    expect(retryAfterMs(h({ "retry-after": "17" }), now)).toBe(17_000);
    expect(retryAfterMs(h({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(retryAfterMs(h({ "retry-after": "Wed, 01 Jan 2025 00:02:00 GMT" }), now)).toBe(120_000);
    expect(retryAfterMs(h({ "retry-after": "Tue, 31 Dec 2024 00:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(h({ "retry-after": "99999999" }), now)).toBe(RETRY_AFTER_MAX_MS);
    expect(retryAfterMs(h({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterMs(h({}), now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe("time zones", () => {
  test("canonical IANA names; offsets, unknown names and non-strings are refused", () => {
    expect(canonicalTimeZone("europe/paris")).toBe("Europe/Paris");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    for (const bad of ["+01:00", "Mars/Olympus_Mons", "", "a b", null, 42, "x".repeat(65)]) {
      expect(isValidTimeZone(bad)).toBe(false);
    }
  });
});

describe("calendar days", () => {
  test("the day of an instant depends on the zone; a bad zone counts as UTC", () => {
    const t = new Date("2026-11-21T03:00:00Z");
    expect(isoDayInZone(t, "America/Chicago")).toBe("2026-11-20");
    expect(isoDayInZone(t, "Asia/Tokyo")).toBe("2026-11-21");
    expect(isoDayInZone(t, "Nowhere/Else")).toBe("2026-11-21");
  });

  test("the first instant of a day, across a DST change", () => {
    expect(
      startOfDayInZone({ year: 2026, month: 3, day: 8 }, "America/New_York").toISOString(),
    ).toBe("2026-03-08T05:00:00.000Z");
    expect(
      startOfDayInZone({ year: 2026, month: 3, day: 9 }, "America/New_York").toISOString(),
    ).toBe("2026-03-09T04:00:00.000Z");
  });

  test("whole days between days, across months, years and DST changes", () => {
    expect(dayDiff("2026-12-31", "2027-01-01")).toBe(1);
    expect(dayDiff("2026-03-01", "2026-02-28")).toBe(-1);
    expect(dayDiff("2026-03-07", "2026-03-09")).toBe(2);
  });
});
