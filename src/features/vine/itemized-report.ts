/**
 * Amazon's Vine "Itemized Report" as rows (pure: bytes in, rows out; no database).
 *
 * The file is `.xlsx` (read with read-excel-file: a reader only, fflate to unzip, a SAX parser
 * that expands no entities) or the same table as `.csv` (csv-parse). Its first row is a title
 * ("Itemized Report 2025"), the second the headers; a CSV may start with the headers. Before the
 * spreadsheet is parsed, its XML parts are inflated as a stream and counted (unpackedXmlBytes): a
 * file that unpacks to more than MAX_UNPACKED_BYTES is refused (a zip bomb, whatever sizes it
 * declares); at most MAX_ROWS rows are read.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { Inflate } from "fflate";
import { readSheet } from "read-excel-file/universal";
import { badRequest } from "../../lib/errors.ts";

export const REPORT_HEADERS = [
  "Order Number",
  "ASIN",
  "Product Name",
  "Order Type",
  "Order Date",
  "Shipped Date",
  "Cancelled Date",
  "Estimated Tax Value",
] as const;
/** Without these a row cannot be placed; the others are read when present. */
const REQUIRED = ["Order Number", "ASIN", "Order Type", "Estimated Tax Value"] as const;

export const MAX_ROWS = 20_000;
export const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

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

export type ReadReport = { rows: ReportRow[]; errors: { row: number; message: string }[] };

type Cell = string | number | boolean | Date | null | undefined;

const notAReport = () =>
  badRequest(
    `This file is not an Amazon Vine Itemized Report: the first or second row must hold the headers ${REPORT_HEADERS.join(", ")}. Download the report from your Vine account (Account → Itemized Report) and upload the .xlsx file, or the same table as .csv.`,
  );

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
const isOle = (b: Uint8Array) => b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

const damaged = () => badRequest("This .xlsx file is damaged (it is not a readable zip archive)");
const tooLarge = () => badRequest("This spreadsheet is too large to be an Itemized Report");

/**
 * How many bytes the .xml parts of the zip unpack to, found by inflating them as read-excel-file
 * (fflate's `unzip`) will: each part as the central directory places it, fed to a streaming
 * inflater 1 KB at a time, so memory stays small and the count stops past `limit` (a zip bomb, or
 * a part whose declared size lies, is refused before read-excel-file unpacks anything).
 */
export function unpackedXmlBytes(zip: Uint8Array, limit: number): number {
  const u16 = (o: number) => (zip[o] ?? 0) | ((zip[o + 1] ?? 0) << 8);
  const u32 = (o: number) => (u16(o) | (u16(o + 2) << 16)) >>> 0;
  let eocd = zip.length - 22;
  while (eocd >= 0 && u32(eocd) !== 0x06054b50) {
    if (zip.length - eocd > 65_558) throw damaged();
    eocd--;
  }
  if (eocd < 0) throw damaged();
  let at = u32(eocd + 16);
  let total = 0;
  for (let n = u16(eocd + 8); n > 0; n--) {
    if (at + 46 > zip.length || u32(at) !== 0x02014b50) throw damaged();
    const method = u16(at + 10);
    const packed = u32(at + 20);
    const local = u32(at + 42);
    const nameLength = u16(at + 28);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    if (packed === 0xffffffff || local === 0xffffffff) throw tooLarge(); // zip64: not a report
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (!name.endsWith(".xml") && !name.endsWith(".xml.rels")) continue;
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    const data = zip.subarray(start, start + packed);
    if (method === 0) total += data.length;
    else if (method === 8) {
      const inflater = new Inflate((chunk) => {
        total += chunk.length;
      });
      try {
        for (let i = 0; i < data.length && total <= limit; i += 1024) {
          inflater.push(data.subarray(i, i + 1024), i + 1024 >= data.length);
        }
      } catch {
        throw damaged();
      }
    } else throw damaged();
    if (total > limit) throw tooLarge();
  }
  return total;
}

async function readXlsx(bytes: Uint8Array): Promise<Cell[][]> {
  unpackedXmlBytes(bytes, MAX_UNPACKED_BYTES);
  const copy = bytes.slice().buffer as ArrayBuffer;
  try {
    return (await readSheet(copy)) as unknown as Cell[][];
  } catch {
    throw notAReport();
  }
}

function readCsv(bytes: Uint8Array): Cell[][] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notAReport();
  }
  if (text.includes("\u0000")) throw notAReport();
  try {
    return parseCsv(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      to_line: MAX_ROWS + 2,
    }) as string[][];
  } catch {
    throw badRequest("This CSV file could not be read: check that its quotes are balanced");
  }
}

const norm = (c: Cell) =>
  String(c ?? "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, " ");

/** Column index per header, from the first of the first two rows that has the required ones. */
function findHeaders(table: Cell[][]): { at: number; col: Map<string, number> } {
  for (let at = 0; at < Math.min(2, table.length); at++) {
    const names = (table[at] ?? []).map(norm);
    const col = new Map<string, number>();
    for (const h of REPORT_HEADERS) {
      const i = names.indexOf(h.toLowerCase());
      if (i >= 0) col.set(h, i);
    }
    if (REQUIRED.every((h) => col.has(h))) return { at, col };
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

/**
 * A report date as a calendar day. Excel dates arrive as Date (read-excel-file reads them in UTC)
 * or, unformatted, as serial numbers; text as "11/03/2025", "2025-11-03" (with or without a time)
 * or "Nov 3, 2025". Undefined = not a date; null = empty.
 */
export function reportDay(c: Cell): string | null | undefined {
  if (c === null || c === undefined || c === "") return null;
  if (c instanceof Date) {
    if (Number.isNaN(c.getTime())) return undefined;
    return validDay(c.getUTCFullYear(), c.getUTCMonth() + 1, c.getUTCDate()) ?? undefined;
  }
  if (typeof c === "number") {
    if (c < 36526 || c > 401768) return undefined; // 2000-01-01 … 2999-12-31 as Excel serials
    const t = new Date(Date.UTC(1899, 11, 30) + Math.floor(c) * 86_400_000);
    return validDay(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()) ?? undefined;
  }
  const s = String(c).trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m) return validDay(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/.exec(s);
  if (m) return validDay(Number(m[3]), Number(m[1]), Number(m[2])) ?? undefined;
  m = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    if (month > 0) return validDay(Number(m[3]), month, Number(m[2])) ?? undefined;
  }
  return undefined;
}

/** "$1,234.56", "-12.5", 12.34 → cents; undefined when not an amount. */
export function reportCents(c: Cell): number | undefined {
  if (typeof c === "number") {
    if (!Number.isFinite(c) || Math.abs(c) >= 1e9) return undefined;
    return Math.round(c * 100);
  }
  const s = String(c ?? "")
    .trim()
    .replace(/^\((.*)\)$/, "-$1");
  const m = /^(-)?\s*[$€£]?\s*(-)?(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return undefined;
  const whole = Number(m[3]!.replace(/,/g, ""));
  if (whole >= 1e9) return undefined;
  const cents = whole * 100 + Number((m[4] ?? "").padEnd(2, "0"));
  return m[1] || m[2] ? -cents : cents;
}

const textOf = (c: Cell) => (c instanceof Date ? c.toISOString() : String(c ?? "")).trim();

/** Reads the uploaded file; throws a 400 when it is not an Itemized Report. */
export async function readItemizedReport(bytes: Uint8Array): Promise<ReadReport> {
  if (bytes.length === 0) throw badRequest("The file is empty");
  if (isOle(bytes)) {
    throw badRequest(
      "This is an old Excel (.xls) file: open it and save it as .xlsx or .csv, then upload that",
    );
  }
  const table = isZip(bytes) ? await readXlsx(bytes) : readCsv(bytes);
  const { at, col } = findHeaders(table);
  const cell = (r: Cell[], h: (typeof REPORT_HEADERS)[number]): Cell => {
    const i = col.get(h);
    return i === undefined ? null : r[i];
  };
  const rows: ReportRow[] = [];
  const errors: ReadReport["errors"] = [];
  const body = table.slice(at + 1);
  if (body.length > MAX_ROWS) {
    throw badRequest(`The report has more than ${MAX_ROWS} rows; split it by year`);
  }
  for (const [i, r] of body.entries()) {
    const row = at + 2 + i;
    if (r.every((c) => textOf(c) === "")) continue;
    const orderNumber = textOf(cell(r, "Order Number")).slice(0, 64);
    const asin = textOf(cell(r, "ASIN")).toUpperCase();
    const type = textOf(cell(r, "Order Type")).toUpperCase();
    if (!orderNumber) {
      errors.push({ row, message: "The order number is empty" });
      continue;
    }
    if (!/^[A-Z0-9]{10}$/.test(asin)) {
      errors.push({ row, message: `"${asin.slice(0, 20)}" is not an ASIN (10 letters or digits)` });
      continue;
    }
    if (type !== "ORDER" && type !== "CANCELLATION") {
      errors.push({ row, message: "Order Type must be ORDER or CANCELLATION" });
      continue;
    }
    const etvCents = reportCents(cell(r, "Estimated Tax Value"));
    if (etvCents === undefined) {
      errors.push({ row, message: "Estimated Tax Value is not an amount such as 24.99" });
      continue;
    }
    const days = {
      orderDate: reportDay(cell(r, "Order Date")),
      shippedDate: reportDay(cell(r, "Shipped Date")),
      cancelledDate: reportDay(cell(r, "Cancelled Date")),
    };
    const bad = (Object.keys(days) as (keyof typeof days)[]).find((k) => days[k] === undefined);
    if (bad) {
      const label = {
        orderDate: "Order Date",
        shippedDate: "Shipped Date",
        cancelledDate: "Cancelled Date",
      }[bad];
      errors.push({ row, message: `${label} is not a date such as 2025-11-03` });
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
  return { rows, errors };
}
