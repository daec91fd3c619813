import { afterEach, beforeEach, describe, expect, type Mock, spyOn, test } from "bun:test";
import {
  DEFAULT_TRACKING_TIME,
  defaultPreferenceTimeZone,
  detectBrowserTimeZone,
  effectiveTimeZone,
  isPreferenceTimeZone,
  isValidTimeZone,
  safeTimeZone,
  TIMEZONE_LABELS,
  TIMEZONES,
  TRACKING_TIME_OPTIONS,
} from "./timezone.ts";

let warnSpy: Mock<typeof console.warn>;
beforeEach(() => {
  warnSpy = spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  warnSpy.mockRestore();
});

/** Replaces Intl.DateTimeFormat().resolvedOptions() for one test. */
function mockResolvedZone(impl: () => string | undefined) {
  const original = Intl.DateTimeFormat.prototype.resolvedOptions;
  const spy = spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (
    this: Intl.DateTimeFormat,
  ) {
    return { ...original.call(this), timeZone: impl() as string };
  });
  return spy;
}

describe("TIMEZONES", () => {
  test("lists exactly the spec zones, in order", () => {
    expect([...TIMEZONES]).toEqual([
      "America/New_York",
      "America/Chicago",
      "America/Denver",
      "America/Los_Angeles",
      "America/Phoenix",
      "America/Anchorage",
      "Pacific/Honolulu",
      "Europe/London",
      "Europe/Paris",
      "Europe/Berlin",
      "Asia/Tokyo",
      "Asia/Shanghai",
      "Australia/Sydney",
    ]);
  });

  test("are all valid IANA zones", () => {
    for (const tz of TIMEZONES) expect(isValidTimeZone(tz)).toBe(true);
  });

  test("each have a friendly, distinct label", () => {
    expect(Object.keys(TIMEZONE_LABELS).sort()).toEqual([...TIMEZONES].sort());
    expect(TIMEZONE_LABELS["America/New_York"]).toBe("Eastern Time (New York)");
    const labels = TIMEZONES.map((tz) => TIMEZONE_LABELS[tz]);
    for (const label of labels) expect(label.trim().length).toBeGreaterThan(0);
    expect(new Set(labels).size).toBe(labels.length);
  });

  test("isPreferenceTimeZone only accepts listed zones", () => {
    expect(isPreferenceTimeZone("Europe/Paris")).toBe(true);
    expect(isPreferenceTimeZone("Europe/Madrid")).toBe(false);
    expect(isPreferenceTimeZone("UTC")).toBe(false);
    expect(isPreferenceTimeZone(undefined)).toBe(false);
  });
});

describe("isValidTimeZone", () => {
  test("accepts any IANA zone Intl knows", () => {
    for (const tz of ["UTC", "America/Chicago", "Europe/Madrid", "Asia/Kolkata", "Etc/GMT+5"]) {
      expect(isValidTimeZone(tz)).toBe(true);
    }
  });

  test("rejects unknown zones and non-strings", () => {
    for (const tz of ["Mars/Olympus_Mons", "Not a zone", "", "   ", null, undefined, 42, {}]) {
      expect(isValidTimeZone(tz)).toBe(false);
    }
  });

  test("is stable across repeated calls", () => {
    expect(isValidTimeZone("Asia/Tokyo")).toBe(true);
    expect(isValidTimeZone("Asia/Tokyo")).toBe(true);
    expect(isValidTimeZone("Asia/Nowhere")).toBe(false);
    expect(isValidTimeZone("Asia/Nowhere")).toBe(false);
  });
});

describe("detectBrowserTimeZone", () => {
  test("returns the zone Intl resolves", () => {
    const spy = mockResolvedZone(() => "Europe/Berlin");
    try {
      expect(detectBrowserTimeZone()).toBe("Europe/Berlin");
    } finally {
      spy.mockRestore();
    }
  });

  test("returns a valid zone without mocking", () => {
    expect(isValidTimeZone(detectBrowserTimeZone())).toBe(true);
  });

  test("falls back to UTC when the zone is empty", () => {
    const spy = mockResolvedZone(() => "");
    try {
      expect(detectBrowserTimeZone()).toBe("UTC");
    } finally {
      spy.mockRestore();
    }
  });

  test("falls back to UTC when the zone is missing", () => {
    const spy = mockResolvedZone(() => undefined);
    try {
      expect(detectBrowserTimeZone()).toBe("UTC");
    } finally {
      spy.mockRestore();
    }
  });

  test("falls back to UTC when Intl throws", () => {
    const spy = mockResolvedZone(() => {
      throw new Error("no Intl");
    });
    try {
      expect(detectBrowserTimeZone()).toBe("UTC");
    } finally {
      spy.mockRestore();
    }
  });
});

describe("defaultPreferenceTimeZone", () => {
  test("uses the browser zone when it is offered", () => {
    for (const tz of TIMEZONES) expect(defaultPreferenceTimeZone(tz)).toBe(tz);
  });

  test("uses America/Chicago otherwise", () => {
    expect(defaultPreferenceTimeZone("Europe/Madrid")).toBe("America/Chicago");
    expect(defaultPreferenceTimeZone("UTC")).toBe("America/Chicago");
    expect(defaultPreferenceTimeZone("")).toBe("America/Chicago");
    expect(defaultPreferenceTimeZone("Mars/Olympus_Mons")).toBe("America/Chicago");
  });

  test("detects the browser zone by default", () => {
    const spy = mockResolvedZone(() => "Asia/Tokyo");
    try {
      expect(defaultPreferenceTimeZone()).toBe("Asia/Tokyo");
    } finally {
      spy.mockRestore();
    }
    const other = mockResolvedZone(() => "Asia/Kolkata");
    try {
      expect(defaultPreferenceTimeZone()).toBe("America/Chicago");
    } finally {
      other.mockRestore();
    }
  });
});

describe("effectiveTimeZone", () => {
  test("signed out: the browser zone, whatever is saved", () => {
    expect(effectiveTimeZone({ signedIn: false, browserZone: "Europe/Madrid" })).toBe(
      "Europe/Madrid",
    );
    expect(
      effectiveTimeZone({ signedIn: false, savedZone: "Asia/Tokyo", browserZone: "Europe/Paris" }),
    ).toBe("Europe/Paris");
  });

  test("signed out: UTC when the browser zone is invalid or empty", () => {
    expect(effectiveTimeZone({ signedIn: false, browserZone: "Mars/Olympus_Mons" })).toBe("UTC");
    expect(effectiveTimeZone({ signedIn: false, browserZone: "" })).toBe("UTC");
  });

  test("signed in: the saved zone when valid", () => {
    expect(
      effectiveTimeZone({ signedIn: true, savedZone: "Asia/Tokyo", browserZone: "Europe/Paris" }),
    ).toBe("Asia/Tokyo");
    // Any valid IANA zone is honoured, not only the offered ones.
    expect(
      effectiveTimeZone({ signedIn: true, savedZone: "Asia/Kolkata", browserZone: "UTC" }),
    ).toBe("Asia/Kolkata");
  });

  test("signed in: the browser zone when nothing valid is saved", () => {
    for (const savedZone of [null, undefined, "", "Mars/Olympus_Mons"]) {
      expect(effectiveTimeZone({ signedIn: true, savedZone, browserZone: "Europe/London" })).toBe(
        "Europe/London",
      );
    }
  });

  test("signed in: UTC when neither zone is valid", () => {
    expect(
      effectiveTimeZone({ signedIn: true, savedZone: "Bad/Zone", browserZone: "Worse/Zone" }),
    ).toBe("UTC");
  });

  test("detects the browser zone when not given", () => {
    const spy = mockResolvedZone(() => "Australia/Sydney");
    try {
      expect(effectiveTimeZone({ signedIn: false })).toBe("Australia/Sydney");
      expect(effectiveTimeZone({ signedIn: true, savedZone: null })).toBe("Australia/Sydney");
      expect(effectiveTimeZone({ signedIn: true, savedZone: "Europe/Berlin" })).toBe(
        "Europe/Berlin",
      );
    } finally {
      spy.mockRestore();
    }
  });

  test("UTC when the browser zone cannot be detected", () => {
    const spy = mockResolvedZone(() => {
      throw new Error("no Intl");
    });
    try {
      expect(effectiveTimeZone({ signedIn: false })).toBe("UTC");
      expect(effectiveTimeZone({ signedIn: true, savedZone: "nope" })).toBe("UTC");
    } finally {
      spy.mockRestore();
    }
  });
});

describe("safeTimeZone", () => {
  test("returns valid zones unchanged without warning", () => {
    expect(safeTimeZone("America/Chicago")).toBe("America/Chicago");
    expect(safeTimeZone("UTC")).toBe("UTC");
    expect(warnSpy).not.toHaveBeenCalled();
  });

  test("returns undefined without warning when no zone is given", () => {
    expect(safeTimeZone(null)).toBeUndefined();
    expect(safeTimeZone(undefined)).toBeUndefined();
    expect(safeTimeZone("")).toBeUndefined();
    expect(warnSpy).not.toHaveBeenCalled();
  });

  test("returns undefined and warns once per invalid zone", () => {
    expect(safeTimeZone("Safe/Test_Zone_A")).toBeUndefined();
    expect(safeTimeZone("Safe/Test_Zone_A")).toBeUndefined();
    expect(warnSpy).toHaveBeenCalledTimes(1);
    expect(String(warnSpy.mock.calls[0]?.[0])).toContain("Safe/Test_Zone_A");
    expect(safeTimeZone("Safe/Test_Zone_B")).toBeUndefined();
    expect(warnSpy).toHaveBeenCalledTimes(2);
  });

  test("the fallback lets Intl use its default zone", () => {
    const instant = new Date("2026-11-21T15:05:00Z");
    const fallback = new Intl.DateTimeFormat("en-US", {
      timeZone: safeTimeZone("Safe/Test_Zone_C"),
    });
    expect(fallback.format(instant)).toBe(new Intl.DateTimeFormat("en-US").format(instant));
  });
});

describe("TRACKING_TIME_OPTIONS", () => {
  test("has every half hour of the day", () => {
    expect(TRACKING_TIME_OPTIONS).toHaveLength(48);
    expect(TRACKING_TIME_OPTIONS[0]).toEqual({ value: "00:00", label: "12:00 AM" });
    expect(TRACKING_TIME_OPTIONS[1]).toEqual({ value: "00:30", label: "12:30 AM" });
    expect(TRACKING_TIME_OPTIONS[47]).toEqual({ value: "23:30", label: "11:30 PM" });
    const values = TRACKING_TIME_OPTIONS.map((o) => o.value);
    expect(new Set(values).size).toBe(48);
    expect([...values].sort()).toEqual(values);
    for (const value of values) expect(value).toMatch(/^([01]\d|2[0-3]):(00|30)$/);
  });

  test("labels use a 12-hour clock", () => {
    const label = (value: string) => TRACKING_TIME_OPTIONS.find((o) => o.value === value)?.label;
    expect(label("09:00")).toBe("9:00 AM");
    expect(label("09:30")).toBe("9:30 AM");
    expect(label("11:30")).toBe("11:30 AM");
    expect(label("12:00")).toBe("12:00 PM");
    expect(label("12:30")).toBe("12:30 PM");
    expect(label("13:00")).toBe("1:00 PM");
    expect(label("23:30")).toBe("11:30 PM");
    for (const o of TRACKING_TIME_OPTIONS)
      expect(o.label).toMatch(/^(1[0-2]|[1-9]):(00|30) (AM|PM)$/);
  });

  test("the default tracking time is one of the options", () => {
    expect(DEFAULT_TRACKING_TIME).toBe("09:00");
    expect(TRACKING_TIME_OPTIONS.some((o) => o.value === DEFAULT_TRACKING_TIME)).toBe(true);
  });
});
