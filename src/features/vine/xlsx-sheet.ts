/**
 * The first sheet of an .xlsx file as rows of cells, read within fixed bounds.
 * Pure: bytes in, rows out; no database.
 *
 * An .xlsx is a zip of XML parts. Only the parts a report needs are inflated — the workbook, its
 * relationships, the shared strings and the first sheet — each with fflate's streaming `Inflate`
 * (synchronous: no worker threads) fed 1 KB at a time and stopped as soon as it passes the smaller of
 * its declared size and its cap. The sheet and shared strings are parsed as they inflate with
 * htmlparser2 in XML mode (a streaming tokenizer that expands no DTD entities), and the sheet stops
 * at the first cell beyond `maxCols` columns or `maxRow` rows, before any table is built. So memory
 * is bounded by what a report needs, whatever the zip declares:
 *
 * - the archive: at most MAX_ENTRIES entries, no duplicate names, no two entries sharing bytes, no
 *   zip64, no encryption, only stored or deflated parts, no part declaring more than MAX_PART_BYTES;
 * - an inflated part must be exactly its declared size (a part that unpacks to more or less than it
 *   says is refused), and the parts read are capped: PART_CAPS.
 *
 * Why not a library: read-excel-file (used before) builds the whole table out to the farthest cell
 * the sheet names and unzips every entry with fflate's threaded `unzip`; exceljs and
 * xlsx-stream-reader stream rows but unzip with unzipper (tmp files, no per-entry cap); yauzl checks
 * entry sizes but still needs our own part selection and XML reading. fflate and htmlparser2 are
 * already the project's dependencies, small and maintained.
 */
import { english, text } from "../../i18n/text.ts";
import { AppError, badRequest } from "../../util/errors.ts";
import { lazyModule } from "../../util/lazy-module.ts";

/** The unzip and XML libraries load with the first spreadsheet uploaded, not at start. */
const fflate = lazyModule(() => require("fflate") as typeof import("fflate"));
const htmlparser2 = lazyModule(() => require("htmlparser2") as typeof import("htmlparser2"));

export type SheetCell = string | number | null;
/** A row as the sheet numbers it (1-based) and its cells by column (0 = A). */
export type SheetRow = { n: number; cells: SheetCell[] };

export const MAX_ENTRIES = 40;
export const MAX_PART_BYTES = 32 * 1024 * 1024;
export const PART_CAPS = {
  workbook: 1024 * 1024,
  rels: 1024 * 1024,
  sharedStrings: 16 * 1024 * 1024,
  sheet: MAX_PART_BYTES,
} as const;
/** Longest text kept from one cell or shared string (a product name is a few hundred characters). */
const MAX_TEXT = 4096;
const MAX_SHARED_STRINGS = 200_000;

/** Excel writes characters XML cannot hold as `_xHHHH_` (ST_Xstring); they are decoded here. */
const unescapeX = (s: string) =>
  s.includes("_x")
    ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : s;

/** A damaged file: why, as a `vine.server.xlsx.*` text (the reader's language) and its English. */
export const damaged = (id: string, values?: Record<string, string | number>) => {
  const why = text(`vine.server.xlsx.${id}`, values);
  return new AppError(400, "xlsx_damaged", { reason: english(why) }, undefined, undefined, {
    reason: why,
  });
};
export const tooLarge = () => badRequest("xlsx_too_large");

type Entry = {
  name: string;
  method: number;
  packed: number;
  size: number;
  /** Where the local header starts and where the packed data starts and ends. */
  local: number;
  start: number;
  end: number;
};

/** The central directory, checked (see the header); entries by name. */
export function zipEntries(zip: Uint8Array): Map<string, Entry> {
  const u16 = (o: number) => (zip[o] ?? 0) | ((zip[o + 1] ?? 0) << 8);
  const u32 = (o: number) => (u16(o) | (u16(o + 2) << 16)) >>> 0;
  let eocd = zip.length - 22;
  while (eocd >= 0 && u32(eocd) !== 0x06054b50) {
    if (zip.length - eocd > 65_558) throw damaged("notZip");
    eocd--;
  }
  if (eocd < 0) throw damaged("notZip");
  const count = u16(eocd + 10);
  const dirStart = u32(eocd + 16);
  if (count === 0xffff || dirStart === 0xffffffff) throw tooLarge(); // zip64: not a report
  if (count > MAX_ENTRIES) {
    throw badRequest("xlsx_too_many_parts", { count, max: MAX_ENTRIES });
  }
  const entries = new Map<string, Entry>();
  const dec = new TextDecoder();
  let at = dirStart;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || u32(at) !== 0x02014b50) throw damaged("directory");
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const packed = u32(at + 20);
    const size = u32(at + 24);
    const nameLength = u16(at + 28);
    const local = u32(at + 42);
    const name = dec.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (packed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) throw tooLarge();
    if (flags & 1) throw damaged("encrypted");
    if (method !== 0 && method !== 8) throw damaged("method", { method });
    if (size > MAX_PART_BYTES) throw tooLarge();
    if (entries.has(name)) throw damaged("twice", { part: name.slice(0, 80) });
    if (local + 30 > dirStart || u32(local) !== 0x04034b50) throw damaged("partMissing");
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    const end = start + packed;
    if (end > dirStart) throw damaged("pastEnd");
    entries.set(name, { name, method, packed, size, local, start, end });
  }
  const spans = [...entries.values()].sort((a, b) => a.local - b.local);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.local < spans[i - 1]!.end) throw damaged("shared");
  }
  return entries;
}

/**
 * Inflates one entry, passing its bytes to `sink` as they come; stops past the smaller of its
 * declared size and `cap`, and refuses a part that inflates to another size than it declares.
 */
function inflateEntry(
  zip: Uint8Array,
  e: Entry,
  cap: number,
  sink: (chunk: Uint8Array) => void,
): void {
  if (e.size > cap) throw tooLarge();
  const data = zip.subarray(e.start, e.end);
  let out = 0;
  const take = (chunk: Uint8Array) => {
    out += chunk.length;
    if (out > e.size) throw damaged("unpacksMore", { part: e.name });
    sink(chunk);
  };
  if (e.method === 0) {
    if (e.packed !== e.size) throw damaged("twoSizes", { part: e.name });
    for (let i = 0; i < data.length; i += 16_384) take(data.subarray(i, i + 16_384));
  } else {
    const inflater = new (fflate().Inflate)(take);
    // 1 KB in comes out as at most ~1 MB (deflate's ratio is about 1:1032): the peak per push
    // (4 KB pushes read a 20,000-row sheet about twice as fast, and peak at +22 MB on a bomb).
    for (let i = 0; i < data.length; i += 1024) {
      try {
        inflater.push(data.subarray(i, i + 1024), i + 1024 >= data.length);
      } catch (err) {
        if (err instanceof AppError) throw err; // ours: a cap, a limit, a bad part
        throw damaged("cannotUnpack", { part: e.name });
      }
    }
    if (data.length === 0) throw damaged("partEmpty", { part: e.name });
  }
  if (out !== e.size) throw damaged("unpacksLess", { part: e.name });
}

/** Streams an entry's XML through htmlparser2 (XML mode) with the given handlers. */
function parseEntry(
  zip: Uint8Array,
  e: Entry,
  cap: number,
  handlers: {
    open?: (name: string, attrs: Record<string, string>) => void;
    text?: (text: string) => void;
    close?: (name: string) => void;
  },
): void {
  const local = (n: string) => n.slice(n.indexOf(":") + 1);
  const parser = new (htmlparser2().Parser)(
    {
      onopentag: (name, attrs) => handlers.open?.(local(name), attrs),
      ontext: (t) => handlers.text?.(t),
      onclosetag: (name) => handlers.close?.(local(name)),
    },
    { xmlMode: true, decodeEntities: true },
  );
  const dec = new TextDecoder("utf-8");
  inflateEntry(zip, e, cap, (chunk) => parser.write(dec.decode(chunk, { stream: true })));
  parser.write(dec.decode());
  parser.end();
}

/** "BC12" → [54, 12] (column 0-based, row 1-based); null when not a cell reference. */
export function cellRef(ref: string): [number, number] | null {
  const m = /^([A-Z]{1,3})(\d{1,7})$/.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + (ch.charCodeAt(0) - 64);
  return [col - 1, Number(m[2])];
}

const colName = (i: number) => {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
};

function resolveTarget(target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = `xl/${target}`.split("/");
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.pop();
    else if (p !== "." && p !== "") out.push(p);
  }
  return out.join("/");
}

/**
 * The first sheet's rows (only rows with a cell; cells beyond `maxCols` or rows beyond `maxRow`
 * are refused with `beyond(cell)` before they are stored).
 */
export function readFirstSheet(
  zip: Uint8Array,
  limits: { maxCols: number; maxRow: number; beyond: (ref: string, row: number) => Error },
): SheetRow[] {
  const entries = zipEntries(zip);
  const workbook = entries.get("xl/workbook.xml");
  if (!workbook) throw damaged("noWorkbook");

  let sheetRid: string | null = null;
  parseEntry(zip, workbook, PART_CAPS.workbook, {
    open(name, attrs) {
      if (name !== "sheet" || sheetRid !== null) return;
      const key = Object.keys(attrs).find((k) => k === "id" || k.endsWith(":id"));
      sheetRid = key ? (attrs[key] ?? null) : null;
    },
  });

  let sheetPath: string | null = null;
  let stringsPath: string | null = null;
  const rels = entries.get("xl/_rels/workbook.xml.rels");
  if (rels) {
    parseEntry(zip, rels, PART_CAPS.rels, {
      open(name, attrs) {
        if (name !== "Relationship" || !attrs.Target) return;
        if (attrs.Id === sheetRid) sheetPath = resolveTarget(attrs.Target);
        if ((attrs.Type ?? "").endsWith("/sharedStrings")) {
          stringsPath = resolveTarget(attrs.Target);
        }
      },
    });
  }
  const sheet = entries.get(sheetPath ?? "xl/worksheets/sheet1.xml");
  if (!sheet) throw damaged("noWorksheet");
  const stringsEntry = entries.get(stringsPath ?? "xl/sharedStrings.xml");

  const strings: string[] = [];
  if (stringsEntry) {
    let current: string | null = null;
    let inText = false;
    let phonetic = 0; // <rPh>: a Japanese reading aid, not part of the text
    parseEntry(zip, stringsEntry, PART_CAPS.sharedStrings, {
      open(name) {
        if (name === "si") current = "";
        else if (name === "rPh") phonetic++;
        else if (name === "t") inText = phonetic === 0 && current !== null;
      },
      text(t) {
        if (inText && current !== null && current.length < MAX_TEXT) current += t;
      },
      close(name) {
        if (name === "t") inText = false;
        else if (name === "rPh") phonetic--;
        else if (name === "si" && current !== null) {
          if (strings.length >= MAX_SHARED_STRINGS) throw tooLarge();
          strings.push(unescapeX(current.slice(0, MAX_TEXT)));
          current = null;
        }
      },
    });
  }

  const rows: SheetRow[] = [];
  let row: SheetRow | null = null;
  let nextRow = 1;
  let nextCol = 0;
  let cell: { col: number; type: string } | null = null;
  let value: string | null = null;
  let reading: "v" | "t" | null = null;
  const place = (col: number, rowNumber: number) => {
    if (col >= limits.maxCols || rowNumber > limits.maxRow) {
      throw limits.beyond(`${colName(col)}${rowNumber}`, rowNumber);
    }
  };
  parseEntry(zip, sheet, PART_CAPS.sheet, {
    open(name, attrs) {
      if (name === "row") {
        const n = attrs.r ? Number(attrs.r) : nextRow;
        if (!Number.isInteger(n) || n < 1) throw damaged("rowNoNumber");
        if (n > limits.maxRow) throw limits.beyond(`row ${n}`, n);
        row = { n, cells: [] };
        nextRow = n + 1;
        nextCol = 0;
      } else if (name === "c" && row) {
        const ref: [number, number] | null = attrs.r ? cellRef(attrs.r) : [nextCol, row.n];
        if (!ref) throw damaged("cellNoPlace");
        const [col, rowNumber] = ref;
        place(col, rowNumber);
        cell = { col, type: attrs.t ?? "n" };
        nextCol = col + 1;
        value = null;
      } else if (cell && (name === "v" || (name === "t" && cell.type === "inlineStr"))) {
        reading = name;
        value ??= "";
      }
    },
    text(t) {
      if (reading && value !== null && value.length < MAX_TEXT) value += t;
    },
    close(name) {
      if (name === "v" || name === "t") reading = null;
      else if (name === "c" && cell && row) {
        let v: SheetCell = null;
        if (value !== null) {
          if (cell.type === "s") v = strings[Number(value)] ?? null;
          else if (cell.type === "n") {
            const num = Number(value);
            v = value.trim() !== "" && Number.isFinite(num) ? num : value;
          } else v = unescapeX(value.slice(0, MAX_TEXT)); // str, inlineStr, b, e, d: as text
        }
        if (v !== null && v !== "") row.cells[cell.col] = v;
        cell = null;
      } else if (name === "row" && row) {
        if (row.cells.length > 0) rows.push(row);
        row = null;
      }
    },
  });
  for (const r of rows) for (let i = 0; i < r.cells.length; i++) r.cells[i] ??= null;
  return rows;
}
