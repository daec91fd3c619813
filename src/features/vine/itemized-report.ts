/**
 * Amazon's Vine "Itemized Report" as rows (pure: bytes in, rows out; no database).
 *
 * The file is `.xlsx` (read by ./xlsx-sheet.ts: only the parts a report needs, inflated and parsed
 * as streams under byte caps, and no cell beyond MAX_COLS columns or the report's rows is kept) or
 * the same table as `.csv` (csv-parse). What real downloads look like, from public code that reads
 * them (none of it copied):
 *
 * - the US file: "row 0: title, row 1: empty, row 2: headers" with the English headers of
 *   REPORT_HEADERS (a Vine tax tool's upload route; GitHub code search "Itemized Report" /
 *   "Estimated Tax Value", sheet_to_json with `range: 2`);
 * - the German file (vine.amazon.de, `/vine/api/get-tax-report?year=…&fileType=XLSX`): headers on
 *   the third row (`headerRowIndex = 2`), read by position — order number, ASIN, product name,
 *   order type (`CANCELLATION` in English), order date, and the ETV last — with dates as
 *   `03/11/2025` or `03.11.2025` (day first, a time may follow) and the ETV as text such as
 *   `1.234,56 €` (hutauf/VineTaxTools, main_order_tax_cancellations_eval.user.js at 563c801:
 *   extractData, parseDateSafe, etvstrtofloat; commit 356ce6f "Fix date parsing to use German
 *   formats").
 *
 * So the header row is looked for in the first HEADER_ROWS rows: by the English names, else by
 * position when the row below it is a report row (an order number, an ASIN, ORDER/CANCELLATION).
 * No header names in other languages were found in public sources; the positional reading covers
 * them. Dates that could be day-first or month-first are read as the user's Vine marketplace writes
 * them, and a file whose dates contradict it is refused (see readDates). Every text cell is cleaned
 * as JSON bodies are (cleanText: control and bidi characters).
 */
import { cleanText } from "../../contract/clean-text.ts";
import type { MarketplaceCode } from "../../contract/marketplaces.ts";
import type { ReportRowError } from "../../contract/vine.ts";
import { REPORT_HEADERS } from "../../contract/vine-constants.ts";
import { english, text } from "../../i18n/text.ts";
import { badRequest } from "../../util/errors.ts";
import { lazyModule } from "../../util/lazy-module.ts";
import { readFirstSheet, type SheetCell, type SheetRow } from "./xlsx-sheet.ts";

/** The CSV reader loads with the first CSV report uploaded, not at start. */
const csvParse = lazyModule(() => require("csv-parse/sync") as typeof import("csv-parse/sync"));

type Header = (typeof REPORT_HEADERS)[number];

/** A row that could not be read: its sentence in English and as a `vine.server.*` text. */
function rowError(row: number, id: string, values?: Record<string, string>): ReportRowError {
  const t = text(`vine.server.${id}`, values);
  return {
    row,
    message: english(t),
    messageCode: t.code,
    ...(t.values ? { messageValues: t.values } : {}),
  };
}
/** Without these a row cannot be placed; the others are read when present. */
const REQUIRED = ["Order Number", "ASIN", "Order Type", "Estimated Tax Value"] as const;

export const MAX_ROWS = 20_000;
/** The header row is looked for in the first ten rows (title, blank rows, subtitle before it). */
export const HEADER_ROWS = 10;
/** The report has 8 columns; a few more are tolerated, a cell beyond this is refused. */
export const MAX_COLS = 16;

export type ReportRow = {
  /** The row's number as the spreadsheet shows it (1-based, title and headers included). */
  row: number;
  orderNumber: string;
  asin: string;
  productName: string | null;
  type: "ORDER" | "CANCELLATION";
  /** YYYY-MM-DD */
  orderDate: string | null;
  shippedDate: string | null;
  cancelledDate: string | null;
  /** Cents, as written (a cancellation may be negative). */
  etvCents: number;
};

export type ReadReport = {
  rows: ReportRow[];
  errors: ReportRowError[];
  /** The row that held the headers (1-based). */
  headerRow: number;
  /** How the dates were written ("DD/MM/YYYY", "Excel dates", …); null when there were none. */
  dateForm: string | null;
};

type Cell = SheetCell;

/** How a marketplace writes a numeric date with the year last; JP writes the year first. */
const YEAR_LAST_ORDER: Record<MarketplaceCode, "MDY" | "DMY" | null> = {
  US: "MDY",
  CA: "MDY",
  UK: "DMY",
  DE: "DMY",
  FR: "DMY",
  IT: "DMY",
  ES: "DMY",
  AU: "DMY",
  JP: null,
};
/** Decimal comma where the marketplace writes amounts so (12,99 €). */
const DECIMAL_COMMA: ReadonlySet<MarketplaceCode> = new Set(["DE", "FR", "IT", "ES"]);

const notAReport = () =>
  badRequest("report_not_itemized", { rows: HEADER_ROWS, headers: REPORT_HEADERS.join(", ") });
const tooManyRows = () => badRequest("report_too_many_rows", { max: MAX_ROWS });

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
const isOle = (b: Uint8Array) => b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

const LAST_ROW = MAX_ROWS + HEADER_ROWS;

function readXlsx(bytes: Uint8Array): SheetRow[] {
  return readFirstSheet(bytes, {
    maxCols: MAX_COLS,
    maxRow: LAST_ROW,
    beyond: (ref, row) =>
      row > LAST_ROW
        ? tooManyRows()
        : badRequest("report_cell_beyond", { cell: ref, columns: REPORT_HEADERS.length }),
  });
}

function readCsv(bytes: Uint8Array): SheetRow[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notAReport();
  }
  if (text.includes("\u0000")) throw notAReport();
  let table: string[][];
  try {
    table = csvParse().parse(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      to_line: LAST_ROW + 1,
    }) as string[][];
  } catch {
    throw badRequest("csv_unreadable");
  }
  if (table.length > LAST_ROW) throw tooManyRows();
  return table.map((cells, i) => ({
    n: i + 1,
    cells: cells.slice(0, MAX_COLS).map((c) => (c === "" ? null : c)),
  }));
}

const textOf = (c: Cell) => cleanText(String(c ?? "")).trim();

const norm = (c: Cell) =>
  textOf(c)
    .toLowerCase()
    .replace(/[\s_]+/g, " ")
    .replace(/[:*]$/, "")
    .trim();

const HEADER_NAMES = new Map<string, Header>(REPORT_HEADERS.map((h) => [h.toLowerCase(), h]));
// Spellings seen besides Amazon's (the same words, another case or spelling).
HEADER_NAMES.set("canceled date", "Cancelled Date");
HEADER_NAMES.set("etv", "Estimated Tax Value");

/** "777-\n8888888-\n9999999", "777 8888888 9999999" → "777-8888888-9999999". */
export function normalizeOrderNumber(c: Cell): string {
  const s = textOf(typeof c === "number" ? String(c) : c).replace(/[\s\u00A0\u202F]+/g, "");
  const m = /^(\d{3})-?(\d{7})-?(\d{7})$/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : s;
}
const looksLikeOrder = (c: Cell) => /^[0-9A-Z]{3}-\d{7}-\d{7}$/.test(normalizeOrderNumber(c));
const looksLikeAsin = (c: Cell) => /^[A-Z0-9]{10}$/.test(textOf(c).toUpperCase());
const looksLikeType = (c: Cell) => /^(ORDER|CANCELLATION)$/.test(textOf(c).toUpperCase());

/** The header row among the first HEADER_ROWS rows, and each header's column. */
function findHeaders(table: SheetRow[]): { at: number; col: Map<Header, number> } {
  const top = table.filter((r) => r.n <= HEADER_ROWS);
  for (const [i, r] of top.entries()) {
    const col = new Map<Header, number>();
    r.cells.forEach((c, j) => {
      const h = HEADER_NAMES.get(norm(c));
      if (h && !col.has(h)) col.set(h, j);
    });
    if (REQUIRED.every((h) => col.has(h))) return { at: i, col };
  }
  // By position (the German file: see the header), when the next row is a report row.
  for (const [i, r] of top.entries()) {
    const filled = r.cells.filter((c) => textOf(c) !== "").length;
    const next = table[i + 1]?.cells ?? [];
    if (filled < REPORT_HEADERS.length) continue;
    if (!looksLikeOrder(next[0] ?? null) || !looksLikeAsin(next[1] ?? null)) continue;
    if (!looksLikeType(next[3] ?? null)) continue;
    const col = new Map<Header, number>();
    for (const [j, h] of REPORT_HEADERS.slice(0, 7).entries()) col.set(h, j);
    let last = r.cells.length - 1;
    while (last > 0 && textOf(r.cells[last] ?? null) === "") last--;
    col.set("Estimated Tax Value", last);
    return { at: i, col };
  }
  throw notAReport();
}

const pad = (n: number) => String(n).padStart(2, "0");
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function validDay(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (y < 2000 || y > 2999 || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** A time may follow a date: "03.11.2025 14:22", "03/11/2025, 14:22", "2025-11-03T17:00:00Z". */
const TIME_AFTER = "(?:[T ,].*)?$";
const YEAR_LAST = new RegExp(`^(\\d{1,2})([/.-])(\\d{1,2})\\2(\\d{4})${TIME_AFTER}`);
const YEAR_FIRST = new RegExp(`^(\\d{4})([/.-])(\\d{1,2})\\2(\\d{1,2})${TIME_AFTER}`);

/** The form a date cell is written in (for the answer); null when it is empty or not a date. */
function formOf(c: Cell, order: "MDY" | "DMY"): string | null {
  if (typeof c === "number") return "Excel dates";
  const s = textOf(c);
  if (!s) return null;
  let m = YEAR_FIRST.exec(s);
  if (m) return m[2] === "-" ? "YYYY-MM-DD" : `YYYY${m[2]}MM${m[2]}DD`;
  m = YEAR_LAST.exec(s);
  if (m) {
    if (m[2] === ".") return "DD.MM.YYYY";
    return order === "MDY" ? `MM${m[2]}DD${m[2]}YYYY` : `DD${m[2]}MM${m[2]}YYYY`;
  }
  if (/[A-Za-z]/.test(s)) return "month names";
  return null;
}

/**
 * A report date as a calendar day. Excel dates arrive as serial numbers; text as "11/03/2025"
 * (month first for `MDY`, day first for `DMY`), "03.11.2025" (always day first), "2025-11-03" or
 * "2025/11/03" (with or without a time), "Nov 3, 2025" or "3 Nov 2025". Undefined = not a date;
 * null = empty.
 */
export function reportDay(c: Cell, order: "MDY" | "DMY" = "MDY"): string | null | undefined {
  if (c === null || c === undefined || c === "") return null;
  if (typeof c === "number") {
    if (c < 36526 || c > 401768) return undefined; // 2000-01-01 … 2999-12-31 as Excel serials
    const t = new Date(Date.UTC(1899, 11, 30) + Math.floor(c) * 86_400_000);
    return validDay(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()) ?? undefined;
  }
  const s = textOf(c);
  if (!s) return null;
  let m = YEAR_FIRST.exec(s);
  if (m) return validDay(Number(m[1]), Number(m[3]), Number(m[4])) ?? undefined;
  m = YEAR_LAST.exec(s);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[3]), Number(m[4])];
    const dayFirst = m[2] === "." || order === "DMY";
    return (dayFirst ? validDay(y, b, a) : validDay(y, a, b)) ?? undefined;
  }
  m = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    if (month > 0) return validDay(Number(m[3]), month, Number(m[2])) ?? undefined;
  }
  m = /^(\d{1,2})\.? ([A-Za-z]{3})[a-z]*\.? (\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    if (month > 0) return validDay(Number(m[3]), month, Number(m[1])) ?? undefined;
  }
  return undefined;
}

/**
 * How the file's numeric dates with the year last are to be read: as the marketplace writes them,
 * unless the file proves otherwise — a first number above 12 can only be a day, a second one above
 * 12 only a day — and then the file is refused, never read the other way silently. Dotted dates
 * (03.11.2025) are day first everywhere and prove nothing.
 */
function dateOrder(
  cells: { row: number; cell: Cell }[],
  marketplace: MarketplaceCode,
): "MDY" | "DMY" {
  let dayFirst: { row: number; text: string } | null = null;
  let monthFirst: { row: number; text: string } | null = null;
  let ambiguous: { row: number; text: string } | null = null;
  for (const { row, cell } of cells) {
    if (typeof cell === "number") continue;
    const text = textOf(cell);
    const m = YEAR_LAST.exec(text);
    if (!m || m[2] === ".") continue;
    const [a, b] = [Number(m[1]), Number(m[3])];
    if (a > 12 && b <= 12) dayFirst ??= { row, text };
    else if (b > 12 && a <= 12) monthFirst ??= { row, text };
    else if (a <= 12 && b <= 12) ambiguous ??= { row, text };
  }
  if (dayFirst && monthFirst) {
    throw badRequest("report_dates_mixed", {
      dayFirst: dayFirst.text,
      dayFirstRow: dayFirst.row,
      monthFirst: monthFirst.text,
      monthFirstRow: monthFirst.row,
    });
  }
  const expected = YEAR_LAST_ORDER[marketplace];
  if (expected === "MDY" && dayFirst) {
    throw badRequest("report_dates_day_first", {
      date: dayFirst.text,
      row: dayFirst.row,
      marketplace,
    });
  }
  if (expected === "DMY" && monthFirst) {
    throw badRequest("report_dates_month_first", {
      date: monthFirst.text,
      row: monthFirst.row,
      marketplace,
    });
  }
  if (expected) return expected;
  // Japan writes the year first; a year-last date is read only when the file shows which it is.
  if (dayFirst) return "DMY";
  if (monthFirst) return "MDY";
  if (ambiguous) {
    throw badRequest("report_date_ambiguous", {
      date: ambiguous.text,
      row: ambiguous.row,
      marketplace,
    });
  }
  return "MDY";
}

const CURRENCY_BEFORE = /^(?:CDN\$|C\$|A\$|AU\$|US\$|[A-Z]{3}|[$€£¥￥])/;
const CURRENCY_AFTER = /(?:[A-Z]{3}|[$€£¥￥円])$/;

/**
 * An amount in cents: 12.34 as a number; as text "$1,234.56", "-12.5", "(3.10)", "£3.50",
 * "CDN$ 12.99", "¥1,234", or with a decimal comma ("12,99 €", "1.234,56 €", "1 234,56 €", "EUR 12,99")
 * when `decimal` is ",". Undefined when not an amount.
 */
export function reportCents(c: Cell, decimal: "." | "," = "."): number | undefined {
  if (typeof c === "number") {
    if (!Number.isFinite(c) || Math.abs(c) >= 1e9) return undefined;
    return Math.round(c * 100);
  }
  let s = textOf(c).replace(/[\s\u00A0\u202F\u2009]+/g, "");
  let negative = false;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    negative = true;
    s = paren[1]!;
  }
  for (let i = 0; i < 2; i++) {
    if (s.startsWith("-")) {
      negative = true;
      s = s.slice(1);
    }
    if (s.endsWith("-")) {
      negative = true;
      s = s.slice(0, -1);
    }
    s = s.replace(CURRENCY_BEFORE, "").replace(CURRENCY_AFTER, "");
  }
  const comma =
    decimal === ","
      ? /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(s)
      : /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(s);
  // With a decimal comma, "12.99" (a dot and two digits) is still a decimal point.
  const dot = decimal === "," && !comma ? /^(\d+)\.(\d{1,2})$/.exec(s) : null;
  const m = comma ?? dot;
  if (!m) return undefined;
  const whole = m[1]!.replace(/[.,]/g, "");
  const fraction = (m[2] ?? "").padEnd(2, "0");
  const n = Number(whole);
  if (n >= 1e9) return undefined;
  const cents = n * 100 + Number(fraction);
  return negative ? -cents : cents;
}

/** Reads the uploaded file; throws a 400 when it is not an Itemized Report. */
export function readItemizedReport(
  bytes: Uint8Array,
  marketplace: MarketplaceCode = "US",
): ReadReport {
  if (bytes.length === 0) throw badRequest("report_empty");
  if (isOle(bytes)) {
    throw badRequest("report_xls");
  }
  const table = isZip(bytes) ? readXlsx(bytes) : readCsv(bytes);
  const { at, col } = findHeaders(table);
  const cell = (r: SheetRow, h: Header): Cell => {
    const i = col.get(h);
    return i === undefined ? null : (r.cells[i] ?? null);
  };
  const body = table.slice(at + 1);
  if (body.length > MAX_ROWS) throw tooManyRows();

  const dateHeaders = ["Order Date", "Shipped Date", "Cancelled Date"] as const;
  const dateCells = body.flatMap((r) => dateHeaders.map((h) => ({ row: r.n, cell: cell(r, h) })));
  const order = dateOrder(dateCells, marketplace);
  const forms = new Set<string>();
  for (const d of dateCells) {
    const f = formOf(d.cell, order);
    if (f) forms.add(f);
  }
  const decimal = DECIMAL_COMMA.has(marketplace) ? "," : ".";
  const example = decimal === "," ? "24,99" : "24.99";
  const dayExample = order === "DMY" ? "03/11/2025" : "11/03/2025";

  const rows: ReportRow[] = [];
  const errors: ReadReport["errors"] = [];
  for (const r of body) {
    const row = r.n;
    if (r.cells.every((c) => textOf(c) === "")) continue;
    const orderNumber = normalizeOrderNumber(cell(r, "Order Number")).slice(0, 64);
    const asin = textOf(cell(r, "ASIN")).toUpperCase();
    const type = textOf(cell(r, "Order Type")).toUpperCase();
    if (!orderNumber) {
      errors.push(rowError(row, "rowNoOrderNumber"));
      continue;
    }
    if (!/^[A-Z0-9]{10}$/.test(asin)) {
      errors.push(rowError(row, "rowNotAsin", { value: asin.slice(0, 20) }));
      continue;
    }
    if (type !== "ORDER" && type !== "CANCELLATION") {
      errors.push(rowError(row, "rowOrderType"));
      continue;
    }
    const etvCents = reportCents(cell(r, "Estimated Tax Value"), decimal);
    if (etvCents === undefined) {
      errors.push(rowError(row, "rowAmount", { example }));
      continue;
    }
    const days = {
      orderDate: reportDay(cell(r, "Order Date"), order),
      shippedDate: reportDay(cell(r, "Shipped Date"), order),
      cancelledDate: reportDay(cell(r, "Cancelled Date"), order),
    };
    const bad = (Object.keys(days) as (keyof typeof days)[]).find((k) => days[k] === undefined);
    if (bad) {
      const label = {
        orderDate: "Order Date",
        shippedDate: "Shipped Date",
        cancelledDate: "Cancelled Date",
      }[bad];
      errors.push(rowError(row, "rowDate", { column: label, example: dayExample }));
      continue;
    }
    const product = textOf(cell(r, "Product Name")).slice(0, 1000);
    rows.push({
      row,
      orderNumber,
      asin,
      productName: product || null,
      type,
      orderDate: days.orderDate ?? null,
      shippedDate: days.shippedDate ?? null,
      cancelledDate: days.cancelledDate ?? null,
      etvCents,
    });
  }
  const formList = [...forms];
  return {
    rows,
    errors,
    headerRow: table[at]!.n,
    dateForm: formList.length ? formList.join(", ") : null,
  };
}
