import { expect, test } from "bun:test";
import { reportCents, reportDay } from "./itemized-report.ts";
import { orderDay } from "./vine.service.ts";

test("report dates: Excel dates and serials, US and ISO text, month names; anything else is not a date", () => {
  expect(reportDay(new Date(Date.UTC(2025, 10, 3)))).toBe("2025-11-03");
  expect(reportDay(45964)).toBe("2025-11-03"); // Excel's serial for 3 Nov 2025
  expect(reportDay("11/03/2025")).toBe("2025-11-03");
  expect(reportDay("2025-11-03")).toBe("2025-11-03");
  expect(reportDay("2025-11-03T17:00:00Z")).toBe("2025-11-03");
  expect(reportDay("Nov 3, 2025")).toBe("2025-11-03");
  expect(reportDay("")).toBeNull();
  expect(reportDay(null)).toBeNull();
  for (const bad of ["02/30/2025", "2025-13-01", "yesterday", "3", 12, "Foo 3, 2025"]) {
    expect(reportDay(bad)).toBeUndefined();
  }
});

test("report amounts in cents, negative cancellations included", () => {
  expect(reportCents(24.99)).toBe(2499);
  expect(reportCents("$1,234.5")).toBe(123450);
  expect(reportCents("-12.00")).toBe(-1200);
  expect(reportCents("$-7")).toBe(-700);
  expect(reportCents("(3.10)")).toBe(-310);
  expect(reportCents("0")).toBe(0);
  for (const bad of ["", "ten", "1.234", "12,34", Number.NaN, 1e12])
    expect(reportCents(bad)).toBeUndefined();
});

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
