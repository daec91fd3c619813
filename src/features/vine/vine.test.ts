import { expect, test } from "bun:test";
import { isoDayInZone } from "../../util/calendar-day.ts";
import { createDayOf, orderDay } from "./vine.service.ts";

test("an order's day: a bare date as it is, an instant in the zone, else the day it was added", () => {
  const at = (dateOrdered: string | null) => ({
    dateOrdered,
    createdAt: "2026-11-21T05:30:00.000Z",
  });
  expect(orderDay(at("2026-11-21"), "Pacific/Kiritimati")).toBe("2026-11-21");
  expect(orderDay(at("2026-11-21T05:30:00.000Z"), "America/Chicago")).toBe("2026-11-20");
  expect(orderDay(at("2026-11-21T05:30:00.000Z"), "UTC")).toBe("2026-11-21");
  expect(orderDay(at(null), "America/Chicago")).toBe("2026-11-20");
  expect(orderDay(at(null), "Asia/Tokyo")).toBe("2026-11-21");
});

test("the per-zone day finder agrees with the exact one, around offset changes too", () => {
  const chicago = createDayOf("America/Chicago");
  const day = (iso: string) => chicago({ dateOrdered: iso, createdAt: iso });
  // DST ends in Chicago on 1 Nov 2026 at 02:00 CDT (07:00 UTC).
  expect(day("2026-11-01T04:59:59.000Z")).toBe("2026-10-31");
  expect(day("2026-11-01T05:00:00.000Z")).toBe("2026-11-01");
  expect(day("2026-11-02T05:59:59.000Z")).toBe("2026-11-01");
  expect(day("2026-11-02T06:00:00.000Z")).toBe("2026-11-02");
  // Random instants over two years in zones with odd offsets and half-hour DST changes.
  let seed = 17;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (const zone of [
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "America/St_Johns",
    "Pacific/Chatham",
    "Europe/Paris",
  ]) {
    const fast = createDayOf(zone);
    for (let i = 0; i < 400; i++) {
      const t = Date.UTC(2025, 0, 1) + Math.floor(next() * 730 * 86_400_000);
      const iso = new Date(t).toISOString();
      expect(fast({ dateOrdered: iso, createdAt: iso })).toBe(isoDayInZone(new Date(t), zone));
    }
  }
});
