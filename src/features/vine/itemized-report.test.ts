/**
 * The report reader's pure parts: dates and amounts in the marketplaces' forms, order numbers,
 * the header row, and the zip and sheet limits.
 */
import { expect, test } from "bun:test";
import { zipSync } from "fflate";
import { buildXlsx, declareSize, shareBlob, xlsxParts } from "../../../test/support/xlsx.ts";
import { REPORT_HEADERS } from "../../contract/vine-constants.ts";
import {
  normalizeOrderNumber,
  readItemizedReport,
  reportCents,
  reportDay,
} from "./itemized-report.ts";
import { readFirstSheet, zipEntries } from "./xlsx-sheet.ts";

test("report dates: Excel serials, month or day first as the marketplace writes them, dots, ISO, month names", () => {
  expect(reportDay(45964)).toBe("2025-11-03"); // Excel's serial for 3 Nov 2025
  expect(reportDay("11/03/2025")).toBe("2025-11-03");
  expect(reportDay("11/03/2025", "MDY")).toBe("2025-11-03");
  expect(reportDay("03/11/2025", "DMY")).toBe("2025-11-03");
  expect(reportDay("03.11.2025", "MDY")).toBe("2025-11-03"); // dots are day first everywhere
  expect(reportDay("03.11.2025, 14:22", "DMY")).toBe("2025-11-03");
  expect(reportDay("03/11/2025 14:22:05", "DMY")).toBe("2025-11-03");
  expect(reportDay("2025-11-03")).toBe("2025-11-03");
  expect(reportDay("2025/11/03")).toBe("2025-11-03");
  expect(reportDay("2025-11-03T17:00:00Z")).toBe("2025-11-03");
  expect(reportDay("Nov 3, 2025")).toBe("2025-11-03");
  expect(reportDay("3 Nov 2025")).toBe("2025-11-03");
  expect(reportDay("")).toBeNull();
  expect(reportDay(null)).toBeNull();
  for (const bad of ["02/30/2025", "2025-13-01", "yesterday", "3", 12, "Foo 3, 2025"]) {
    expect(reportDay(bad)).toBeUndefined();
  }
  expect(reportDay("13/11/2025", "MDY")).toBeUndefined();
});

test("report amounts in cents: the marketplace's decimal mark, currency before or after, negatives", () => {
  expect(reportCents(24.99)).toBe(2499);
  expect(reportCents("$1,234.5")).toBe(123450);
  expect(reportCents("-12.00")).toBe(-1200);
  expect(reportCents("$-7")).toBe(-700);
  expect(reportCents("(3.10)")).toBe(-310);
  expect(reportCents("0")).toBe(0);
  expect(reportCents("£3.50")).toBe(350);
  expect(reportCents("CDN$ 12.99")).toBe(1299);
  expect(reportCents("12.99 CAD")).toBe(1299);
  expect(reportCents("¥1,234")).toBe(123400);
  expect(reportCents("12,99 €", ",")).toBe(1299);
  expect(reportCents("1.234,56 €", ",")).toBe(123456);
  expect(reportCents("1\u00A0234,56\u00A0€", ",")).toBe(123456);
  expect(reportCents("EUR 12,99", ",")).toBe(1299);
  expect(reportCents("-7,50 €", ",")).toBe(-750);
  expect(reportCents("12.99", ",")).toBe(1299);
  expect(reportCents("1.234", ",")).toBe(123400);
  for (const bad of ["", "ten", "1.234", "12,34", Number.NaN, 1e12]) {
    expect(reportCents(bad)).toBeUndefined();
  }
  expect(reportCents("12,999", ",")).toBeUndefined();
});

test("order numbers broken over lines or spaces become the mail's form", () => {
  expect(normalizeOrderNumber("777-\n8888888-\n9999999")).toBe("777-8888888-9999999");
  expect(normalizeOrderNumber(" 777 8888888 9999999 ")).toBe("777-8888888-9999999");
  expect(normalizeOrderNumber("77788888889999999")).toBe("777-8888888-9999999");
  expect(normalizeOrderNumber("D01-1234567-1234567")).toBe("D01-1234567-1234567");
  expect(normalizeOrderNumber("777\u202E-8888888-9999999")).toBe("777-8888888-9999999");
});

const row = ["111-0000000-0000001", "B0AAAAAAA1", "Mug", "ORDER", "2025-11-03", null, null, 1];

test("the header row: anywhere in the first ten rows, not below", () => {
  const at = (n: number) =>
    readItemizedReport(
      buildXlsx([["Itemized Report"], ...Array(n - 2).fill([null]), [...REPORT_HEADERS], row]),
    );
  expect(at(10).headerRow).toBe(10);
  expect(at(10).rows).toHaveLength(1);
  expect(() => at(11)).toThrow("one of its first 10 rows must hold the headers");
});

test("zip limits: duplicate names, shared bytes, too many parts, declared sizes", () => {
  const report = zipSync(xlsxParts([[...REPORT_HEADERS], row]));
  expect(zipEntries(report).size).toBe(7);
  expect(() => zipEntries(shareBlob(report, "xl/workbook.xml", ["xl/workbook.xml"]))).toThrow(
    "the part xl/workbook.xml appears twice",
  );
  expect(() => zipEntries(shareBlob(report, "xl/styles.xml", ["xl/other.xml"]))).toThrow(
    "two parts share the same bytes",
  );
  const parts: Record<string, Uint8Array> = {};
  for (let i = 0; i < 41; i++) parts[`p${i}.xml`] = new Uint8Array(1);
  expect(() => zipEntries(zipSync(parts))).toThrow("This .xlsx file has 41 parts");
  const small = zipSync(xlsxParts([[...REPORT_HEADERS], row]));
  declareSize(small, "xl/worksheets/sheet1.xml", 10);
  const limits = { maxCols: 16, maxRow: 100, beyond: () => new Error("beyond") };
  expect(() => readFirstSheet(small, limits)).toThrow("unpacks to more than it says");
  const big = zipSync(xlsxParts([[...REPORT_HEADERS], row]));
  declareSize(big, "xl/sharedStrings.xml", 100_000);
  expect(() => readFirstSheet(big, limits)).toThrow("unpacks to less than it says");
});

test("sheet limits: a cell beyond the columns or rows is refused before the table is built", () => {
  const withCell = (xml: string) =>
    zipSync(xlsxParts([[...REPORT_HEADERS], row], { extraSheetXml: xml }));
  expect(() => readItemizedReport(withCell('<row r="5"><c r="Q5"><v>1</v></c></row>'))).toThrow(
    "This spreadsheet has a cell at Q5, beyond the report's 8 columns",
  );
  expect(() =>
    readItemizedReport(withCell('<row r="20011"><c r="A20011"><v>1</v></c></row>')),
  ).toThrow("The report has more than 20000 rows");
  // Column P (the 16th) and row 20,010 are still read.
  const edge = readItemizedReport(withCell('<row r="20010"><c r="P20010"><v>1</v></c></row>'));
  expect(edge.rows).toHaveLength(1);
});

test("Japanese shared strings: the phonetic reading (rPh) is not part of the text", () => {
  const parts = xlsxParts([[...REPORT_HEADERS], row]);
  const xml = new TextDecoder().decode(parts["xl/sharedStrings.xml"]);
  parts["xl/sharedStrings.xml"] = new TextEncoder().encode(
    xml.replace(
      '<si><t xml:space="preserve">Mug</t></si>',
      '<si><t>湯呑</t><rPh sb="0" eb="2"><t>ユノミ</t></rPh></si>',
    ),
  );
  expect(readItemizedReport(zipSync(parts), "JP").rows[0]?.productName).toBe("湯呑");
});
