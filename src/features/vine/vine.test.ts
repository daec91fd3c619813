import { expect, test } from "bun:test";
import { unzipSync, zipSync } from "fflate";
import { buildXlsx } from "../../../test/support/xlsx.ts";
import { isoDayInZone } from "../../shared/calendar-day.ts";
import { MAX_UNPACKED_BYTES, reportCents, reportDay, unpackedXmlBytes } from "./itemized-report.ts";
import { createDayOf, orderDay } from "./vine.service.ts";

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

test("the unpacked size of the XML parts is counted by inflating them, whatever the zip declares", () => {
  const report = buildXlsx([["Itemized Report 2026"], ["Order Number"]]);
  // The parts read-excel-file reads: names ending .xml or .xml.rels (not _rels/.rels).
  const parts = unzipSync(report, { filter: (f) => /\.xml(\.rels)?$/.test(f.name) });
  const real = Object.values(parts).reduce((n, f) => n + f.length, 0);
  expect(unpackedXmlBytes(report, MAX_UNPACKED_BYTES)).toBe(real);

  // 40 MB of zeros that says it is 100 bytes, in its local header and its directory entry.
  const bomb = zipSync({ "xl/worksheets/sheet1.xml": new Uint8Array(40 * 1024 * 1024) });
  const dir = bomb.findLastIndex(
    (_, i) => bomb[i] === 0x50 && bomb[i + 1] === 0x4b && bomb[i + 2] === 1 && bomb[i + 3] === 2,
  );
  new DataView(bomb.buffer).setUint32(22, 100, true);
  new DataView(bomb.buffer).setUint32(dir + 24, 100, true);
  let declared = 0;
  unzipSync(bomb, {
    filter: (f) => {
      declared += f.originalSize;
      return false;
    },
  });
  expect(declared).toBe(100);
  expect(() => unpackedXmlBytes(bomb, MAX_UNPACKED_BYTES)).toThrow(
    "This spreadsheet is too large to be an Itemized Report",
  );
  expect(() => unpackedXmlBytes(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), 100)).toThrow("damaged");
});
