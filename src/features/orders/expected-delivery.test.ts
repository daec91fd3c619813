import { describe, expect, test } from "bun:test";
import {
  addDays,
  addMonths,
  dayInZone,
  isoDayInZone,
  startOfDayInZone,
} from "../../util/calendar-day.ts";
import { parseExpectedDelivery } from "./expected-delivery.ts";

// Thursday 19 November 2026, 15:00 UTC (10:00 in New York, 00:00 next day in Tokyo)
const THU = new Date("2026-11-19T15:00:00Z");
const at = (text: string, now = THU, zone = "UTC") => parseExpectedDelivery(text, now, zone);

describe("parseExpectedDelivery: weekdays", () => {
  const cases: [string, string][] = [
    ["Arriving Thursday", "2026-11-19"], // the weekday is today → today
    ["Thu", "2026-11-19"],
    ["thursday", "2026-11-19"],
    ["Arriving Friday", "2026-11-20"],
    ["Fri", "2026-11-20"],
    ["Saturday", "2026-11-21"],
    ["Sun.", "2026-11-22"],
    ["Mon", "2026-11-23"],
    ["Tues", "2026-11-24"],
    ["Wednesday", "2026-11-25"], // yesterday's weekday → next week
    ["Arriving Wed by 8pm", "2026-11-25"],
    ["Thurs", "2026-11-19"],
  ];
  for (const [text, want] of cases) {
    test(`"${text}" → ${want}`, () => expect(at(text)).toBe(want));
  }

  test("a weekday range gives its later day, counted from the first", () => {
    expect(at("Tuesday - Thursday")).toBe("2026-11-26");
    expect(at("Arriving Fri - Mon")).toBe("2026-11-23");
    expect(at("Thursday to Friday")).toBe("2026-11-20");
  });

  test("words that merely contain a weekday are not weekdays", () => {
    expect(at("Satisfaction guaranteed")).toBeNull();
    expect(at("Monitor")).toBeNull();
  });
});

describe("parseExpectedDelivery: month and day", () => {
  const cases: [string, string][] = [
    ["November 24", "2026-11-24"],
    ["Nov 24", "2026-11-24"],
    ["nov. 24th", "2026-11-24"],
    ["Monday, November 24", "2026-11-24"],
    ["Arriving Monday, November 24 by 10pm", "2026-11-24"],
    ["24 November", "2026-11-24"],
    ["24th Nov", "2026-11-24"],
    ["Delivered 24 of November", "2026-11-24"],
    ["Sept 3", "2026-09-03"], // 77 days back is nearer than 288 ahead
    ["December 1, 2026", "2026-12-01"],
    ["2026-12-01", "2026-12-01"],
    ["Nov 19", "2026-11-19"],
  ];
  for (const [text, want] of cases) {
    test(`"${text}" → ${want}`, () => expect(at(text)).toBe(want));
  }

  test("the year is the one nearest to today, across a year end", () => {
    const dec28 = new Date("2026-12-28T12:00:00Z");
    expect(at("January 3", dec28)).toBe("2027-01-03");
    expect(at("Arriving Saturday, January 2", dec28)).toBe("2027-01-02");
    expect(at("December 30", dec28)).toBe("2026-12-30");
    const jan2 = new Date("2027-01-02T12:00:00Z");
    expect(at("December 30", jan2)).toBe("2026-12-30");
    expect(at("Jan 5", jan2)).toBe("2027-01-05");
    // Mid-year, May is nearer in the past than next May
    expect(at("May 1", new Date("2026-07-15T12:00:00Z"))).toBe("2026-05-01");
  });

  test("February 29 goes to the nearest leap year; impossible days give null", () => {
    expect(at("Feb 29", new Date("2028-02-20T12:00:00Z"))).toBe("2028-02-29");
    expect(at("February 29", new Date("2027-12-30T12:00:00Z"))).toBe("2028-02-29");
    expect(at("Feb 29, 2027")).toBeNull();
    expect(at("Feb 30")).toBeNull();
    expect(at("November 31")).toBeNull();
    expect(at("Nov 0")).toBeNull();
    expect(at("2026-02-30")).toBeNull();
  });

  test("a year outside last year .. next year gives null", () => {
    expect(at("November 24, 2030")).toBeNull();
    expect(at("Nov 24, 2024")).toBeNull();
    expect(at("Jan 1, 2025")).toBe("2025-01-01");
    expect(at("Dec 31, 2027")).toBe("2027-12-31");
    expect(at("2028-01-01")).toBeNull();
    expect(at("2024-12-31")).toBeNull();
  });

  test("times of day are not days of the month", () => {
    expect(at("Nov 24 - 9 PM")).toBe("2026-11-24");
    expect(at("Nov 24 by 9:00")).toBe("2026-11-24");
    expect(at("Now arriving Friday, Nov 28 8am - 2pm")).toBe("2026-11-28");
    expect(at("Dec 2025")).toBeNull();
  });
});

describe("parseExpectedDelivery: ranges give the later date", () => {
  const cases: [string, string][] = [
    ["Thursday, Nov 24 - Saturday, Nov 26", "2026-11-26"],
    ["Nov 24-26", "2026-11-26"],
    ["Nov 24 – 26", "2026-11-26"],
    ["November 24 to 26", "2026-11-26"],
    ["24-26 November", "2026-11-26"],
    ["Nov 30 - Dec 2", "2026-12-02"],
    ["Delivery estimate: Tue, Nov 25 - Thu, Nov 27", "2026-11-27"],
  ];
  for (const [text, want] of cases) {
    test(`"${text}" → ${want}`, () => expect(at(text)).toBe(want));
  }

  test("a range across the year end ends next year", () => {
    expect(at("Dec 30 - Jan 2", new Date("2026-12-20T12:00:00Z"))).toBe("2027-01-02");
    expect(at("December 30 - January 2", new Date("2026-12-31T12:00:00Z"))).toBe("2027-01-02");
  });
});

describe("parseExpectedDelivery: relative days", () => {
  const cases: [string, string | null][] = [
    ["today", "2026-11-19"],
    ["Arriving today", "2026-11-19"],
    ["tomorrow", "2026-11-20"],
    ["Arriving tomorrow", "2026-11-20"],
    ["ARRIVING TOMORROW BY 9PM", "2026-11-20"],
    ["within 3 days", "2026-11-22"],
    ["Within 1 day", "2026-11-20"],
    ["in 5 days", "2026-11-24"],
    ["in 0 days", "2026-11-19"],
    ["within 365 days", "2027-11-19"],
    ["within 366 days", null],
    ["in 1000000 days", null],
    ["within 45 days", "2027-01-03"],
  ];
  for (const [text, want] of cases) {
    test(`"${text}" → ${want}`, () => expect(at(text)).toBe(want));
  }
});

describe("parseExpectedDelivery: time zones", () => {
  test("today is the user's today: ahead of and behind UTC", () => {
    // 15:00 UTC Thursday is 00:00 Friday in Tokyo and 04:00 Thursday in Honolulu (UTC-10)
    expect(at("today", THU, "Asia/Tokyo")).toBe("2026-11-20");
    expect(at("tomorrow", THU, "Asia/Tokyo")).toBe("2026-11-21");
    expect(at("Arriving Thursday", THU, "Asia/Tokyo")).toBe("2026-11-26");
    expect(at("Arriving Friday", THU, "Asia/Tokyo")).toBe("2026-11-20");
    expect(at("today", THU, "Pacific/Honolulu")).toBe("2026-11-19");
    const early = new Date("2026-11-19T03:00:00Z"); // Wednesday evening in the Americas
    expect(at("today", early, "America/Los_Angeles")).toBe("2026-11-18");
    expect(at("Arriving Thursday", early, "America/Los_Angeles")).toBe("2026-11-19");
    expect(at("Arriving Wednesday", early, "America/Los_Angeles")).toBe("2026-11-18");
    expect(at("Arriving Wednesday", early, "UTC")).toBe("2026-11-25");
  });

  test("the day boundary is midnight in the zone", () => {
    const z = "America/New_York"; // UTC-5 in November
    expect(at("today", new Date("2026-11-20T04:59:59Z"), z)).toBe("2026-11-19");
    expect(at("today", new Date("2026-11-20T05:00:00Z"), z)).toBe("2026-11-20");
  });

  test("late-December mail in a zone ahead of UTC already lives in the new year", () => {
    const nye = new Date("2026-12-31T16:00:00Z"); // 01:00 on 1 January 2027 in Tokyo
    expect(at("tomorrow", nye, "Asia/Tokyo")).toBe("2027-01-02");
    expect(at("tomorrow", nye, "UTC")).toBe("2027-01-01");
    // "Jan 1, 2026" is last year in Tokyo (allowed), two years back nowhere
    expect(at("Jan 1, 2026", nye, "Asia/Tokyo")).toBe("2026-01-01");
    expect(at("Dec 31, 2025", nye, "Asia/Tokyo")).toBeNull();
    expect(at("Dec 31, 2025", nye, "UTC")).toBe("2025-12-31");
  });

  test("an unknown zone counts as UTC", () => {
    expect(at("today", THU, "Not/AZone")).toBe("2026-11-19");
  });
});

describe("parseExpectedDelivery: garbage", () => {
  const junk = [
    "",
    "   ",
    "garbage",
    "Arriving soon",
    "Delivered",
    "12/24",
    "32 November",
    "November",
    "may arrive late",
    "in -3 days",
    "within three days",
    "🚚📦",
    "<script>alert(1)</script>",
  ];
  for (const text of junk) {
    test(`${JSON.stringify(text)} → null`, () => expect(at(text)).toBeNull());
  }

  test("very long input is refused quickly", () => {
    const started = performance.now();
    expect(at(`Arriving Thursday ${"x".repeat(300)}`)).toBeNull();
    expect(at("Nov 24 ".repeat(10_000))).toBeNull();
    expect(at(`${"9".repeat(199)}x`)).toBeNull();
    expect(at(`${"1 ".repeat(99)}`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
  });

  test("an invalid clock gives null", () => {
    expect(parseExpectedDelivery("today", new Date(Number.NaN), "UTC")).toBeNull();
  });
});

describe("calendar helpers", () => {
  test("the start of a day in a zone, with DST and a gap at midnight", () => {
    expect(
      startOfDayInZone({ year: 2026, month: 11, day: 19 }, "America/New_York").toISOString(),
    ).toBe("2026-11-19T05:00:00.000Z");
    expect(
      startOfDayInZone({ year: 2026, month: 7, day: 1 }, "America/New_York").toISOString(),
    ).toBe("2026-07-01T04:00:00.000Z");
    expect(startOfDayInZone({ year: 2026, month: 11, day: 20 }, "Asia/Tokyo").toISOString()).toBe(
      "2026-11-19T15:00:00.000Z",
    );
    // Chile springs forward at midnight: the day starts at 01:00 local (04:00 UTC)
    expect(
      startOfDayInZone({ year: 2026, month: 9, day: 6 }, "America/Santiago").toISOString(),
    ).toBe("2026-09-06T04:00:00.000Z");
  });

  test("day arithmetic and zone days", () => {
    expect(addDays({ year: 2028, month: 2, day: 28 }, 1)).toEqual({
      year: 2028,
      month: 2,
      day: 29,
    });
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({
      year: 2027,
      month: 1,
      day: 1,
    });
    expect(addMonths({ year: 2026, month: 12, day: 15 }, 1)).toEqual({
      year: 2027,
      month: 1,
      day: 1,
    });
    expect(dayInZone(THU, "Asia/Tokyo")).toEqual({ year: 2026, month: 11, day: 20 });
    expect(isoDayInZone(THU, "America/Los_Angeles")).toBe("2026-11-19");
  });
});

describe("parseExpectedDelivery: the Vine marketplaces' words and formats", () => {
  // THU is Thursday 2026-11-19.
  test.each([
    ["Livraison prévue : jeudi 4 décembre", "2026-12-04"],
    ["Arrivée : vendredi 5 décembre", "2026-12-05"],
    ["Zustellung: Donnerstag, 4. Dezember", "2026-12-04"],
    ["Voraussichtliche Zustellung: 3. März 2027", "2027-03-03"],
    ["Arriverà martedì 01 dicembre", "2026-12-01"],
    ["Arriverà: giovedì 03 dicembre", "2026-12-03"],
    ["Llegada: jueves, 4 de diciembre", "2026-12-04"],
    ["Llegará el 2 de enero", "2027-01-02"],
    ["お届け予定日 2026/12/04", "2026-12-04"],
    ["お届け予定日: 12月4日", "2026-12-04"],
    ["Zustellung heute", "2026-11-19"],
    ["Livraison prévue : demain", "2026-11-20"],
    ["Arriverà: domani", "2026-11-20"],
    ["Llegada: mañana", "2026-11-20"],
    ["本日お届け予定", "2026-11-19"],
    ["Livraison prévue : samedi", "2026-11-21"],
    ["Zustellung: Montag", "2026-11-23"],
  ])("%s → %s", (text, day) => {
    expect(at(text)).toBe(day);
  });

  test("words that only look like dates stay unread", () => {
    expect(at("Zustellung durch DHL")).toBeNull();
    expect(at("Livraison par Colissimo")).toBeNull();
    expect(at("お届け予定日 2026/13/40")).toBeNull();
  });
});
