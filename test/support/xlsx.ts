/**
 * Builds a real-shaped .xlsx (Office Open XML: the parts Excel writes, zipped with fflate) for the
 * Itemized Report tests. Strings go to the shared-strings table as Excel stores them; Date cells
 * become serial numbers with a date style (numFmtId 14), as in Amazon's download.
 */
import zlib from "node:zlib";
import { zipSync } from "fflate";

export type XlsxCell = string | number | Date | null;

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const colName = (i: number) => {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
};

const serial = (d: Date) => (d.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;

/** The parts of a report .xlsx, as names → bytes (for tests that add or change parts). */
export function xlsxParts(
  rows: XlsxCell[][],
  opts: { sheetName?: string; inlineStrings?: boolean; extraSheetXml?: string } = {},
): Record<string, Uint8Array> {
  const sheetName = opts.sheetName ?? "Itemized Report";
  const strings: string[] = [];
  const index = new Map<string, number>();
  const sharedIndex = (s: string) => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  const sheetRows = rows
    .map((row, r) => {
      const cells = row
        .map((v, c) => {
          const ref = `${colName(c)}${r + 1}`;
          if (v === null) return "";
          if (v instanceof Date) return `<c r="${ref}" s="1"><v>${serial(v)}</v></c>`;
          if (typeof v === "number") return `<c r="${ref}" s="2"><v>${v}</v></c>`;
          if (opts.inlineStrings)
            return `<c r="${ref}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
          return `<c r="${ref}" t="s"><v>${sharedIndex(v)}</v></c>`;
        })
        .join("");
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join("");
  const enc = new TextEncoder();
  const xml = (s: string) =>
    enc.encode(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
  const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return {
    "[Content_Types].xml": xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ),
    "_rels/.rels": xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    "xl/workbook.xml": xml(
      `<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="${esc(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    "xl/styles.xml": xml(
      `<styleSheet xmlns="${main}"><numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ),
    "xl/sharedStrings.xml": xml(
      `<sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join("")}</sst>`,
    ),
    "xl/worksheets/sheet1.xml": xml(
      `<worksheet xmlns="${main}" xmlns:r="${rel}"><sheetData>${sheetRows}${opts.extraSheetXml ?? ""}</sheetData></worksheet>`,
    ),
  };
}

export function buildXlsx(rows: XlsxCell[][], sheetName = "Itemized Report"): Uint8Array {
  return zipSync(xlsxParts(rows, { sheetName }));
}

/* Hostile zips for the reader's limits: written here, by the tests. */

const u16 = (b: Uint8Array, o: number) => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, o: number) => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0;
const eocdOf = (zip: Uint8Array) => {
  for (let i = zip.length - 22; i >= 0; i--) if (u32(zip, i) === 0x06054b50) return i;
  throw new Error("no end of central directory");
};

/** Central-directory records of `zip`, each with its offset and length. */
export function directoryRecords(zip: Uint8Array): { at: number; length: number; name: string }[] {
  const eocd = eocdOf(zip);
  const out: { at: number; length: number; name: string }[] = [];
  let at = u32(zip, eocd + 16);
  for (let i = u16(zip, eocd + 10); i > 0; i--) {
    const n = u16(zip, at + 28);
    const length = 46 + n + u16(zip, at + 30) + u16(zip, at + 32);
    out.push({ at, length, name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + n)) });
    at += length;
  }
  return out;
}

/** Sets the uncompressed size a part declares, in its local header and its directory record. */
export function declareSize(zip: Uint8Array, name: string, size: number): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const rec = directoryRecords(zip).find((r) => r.name === name);
  if (!rec) throw new Error(`no part ${name}`);
  view.setUint32(rec.at + 24, size, true);
  view.setUint32(u32(zip, rec.at + 42) + 22, size, true);
}

/**
 * The same zip with `names.length` more directory records, each a copy of `of`'s under another
 * name: several entries whose bytes are one and the same blob.
 */
export function shareBlob(zip: Uint8Array, of: string, names: string[]): Uint8Array {
  const records = directoryRecords(zip);
  const rec = records.find((r) => r.name === of);
  if (!rec) throw new Error(`no part ${of}`);
  const enc = new TextEncoder();
  const extra = names.map((name) => {
    const n = enc.encode(name);
    const r = new Uint8Array(46 + n.length);
    r.set(zip.subarray(rec.at, rec.at + 46));
    new DataView(r.buffer).setUint16(28, n.length, true);
    new DataView(r.buffer).setUint16(30, 0, true);
    new DataView(r.buffer).setUint16(32, 0, true);
    r.set(n, 46);
    return r;
  });
  const eocd = eocdOf(zip);
  const extraLength = extra.reduce((a, r) => a + r.length, 0);
  const out = new Uint8Array(zip.length + extraLength);
  out.set(zip.subarray(0, eocd));
  let at = eocd;
  for (const r of extra) {
    out.set(r, at);
    at += r.length;
  }
  out.set(zip.subarray(eocd), at);
  const view = new DataView(out.buffer);
  const count = u16(zip, eocd + 10) + names.length;
  view.setUint16(at + 8, count, true);
  view.setUint16(at + 10, count, true);
  view.setUint32(at + 12, u32(zip, eocd + 12) + extraLength, true);
  return out;
}

/**
 * A zip of `files` deflated with the platform's zlib (native: 300 MB of zeros in under a second,
 * where fflate takes ten), for hostile files whose parts are large.
 */
export function zipNative(files: Record<string, Uint8Array>): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const dirs: Uint8Array[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const n = enc.encode(name);
    const packed = zlib.deflateRawSync(data, { level: 6 });
    const crc = Bun.hash.crc32(data);
    const local = new Uint8Array(30 + n.length + packed.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, 8, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, packed.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, n.length, true);
    local.set(n, 30);
    local.set(packed, 30 + n.length);
    const dir = new Uint8Array(46 + n.length);
    const dv = new DataView(dir.buffer);
    dv.setUint32(0, 0x02014b50, true);
    dv.setUint16(4, 20, true);
    dv.setUint16(6, 20, true);
    dv.setUint16(10, 8, true);
    dv.setUint32(16, crc, true);
    dv.setUint32(20, packed.length, true);
    dv.setUint32(24, data.length, true);
    dv.setUint16(28, n.length, true);
    dv.setUint32(42, offset, true);
    dir.set(n, 46);
    locals.push(local);
    dirs.push(dir);
    offset += local.length;
  }
  const dirLength = dirs.reduce((a, d) => a + d.length, 0);
  const out = new Uint8Array(offset + dirLength + 22);
  let at = 0;
  for (const part of [...locals, ...dirs]) {
    out.set(part, at);
    at += part.length;
  }
  const ev = new DataView(out.buffer);
  ev.setUint32(at, 0x06054b50, true);
  ev.setUint16(at + 8, dirs.length, true);
  ev.setUint16(at + 10, dirs.length, true);
  ev.setUint32(at + 12, dirLength, true);
  ev.setUint32(at + 16, offset, true);
  return out;
}
