/**
 * A lean MIME reader: raw RFC 822 bytes → MailMessage, the fast path parseMail (parse.ts) tries
 * before mailparser. It gives EXACTLY what parseMail's mailparser path gives for the shapes it
 * accepts and declines (null) everything else, so the caller falls back to mailparser.
 *
 * It follows the same steps mailparser 3.9 takes (@zone-eu/mailsplit's line splitter and
 * Headers, libmime's header decoding, libqp/libbase64, getTextContent with the skip options of
 * parse.ts), on the whole buffer at once. Accepted: multipart/* trees (nested, preamble and
 * epilogue, a missing final boundary), text/plain and text/html leaves in 7bit/8bit/binary,
 * quoted-printable or base64, charsets utf-8/us-ascii (read as UTF-8, as mailparser does) and
 * the ones libmime reads as windows-1252 (iso-8859-1, latin1, windows-1252...), attachments of
 * any type (never decoded: they do not reach the MailMessage), RFC 2047 subjects and names in
 * those charsets. Declined: message/*, format=flowed, other charsets and transfer encodings,
 * base64 that is not clean, parts the splitter would drop or half-read, duplicate structural
 * headers, unusual From shapes, Date values mailparser cannot read (it would use "now"), mbox
 * "From " lines, anything past the bounds below.
 *
 * Hostile input: never throws (any error is a decline), every step is linear in the input.
 */
import type { MailMessage } from "./amazon/types.ts";

// --- shared with parse.ts --------------------------------------------------------------------

export const unfold = (s: string): string => s.replace(/\r?\n(?=[ \t])/g, "");

/** "Name: value" → {name, value}; null for a line without a usable name. */
export function splitHeaderLine(line: string): { name: string; value: string } | null {
  const unfolded = line.includes("\n") ? unfold(line) : line;
  const colon = unfolded.indexOf(":");
  if (colon <= 0) return null;
  const name = unfolded.slice(0, colon).trim().toLowerCase();
  if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) return null;
  let v = colon + 1;
  while (unfolded.charCodeAt(v) === 0x20 || unfolded.charCodeAt(v) === 0x09) v++;
  return { name, value: unfolded.slice(v) };
}

export const stripBrackets = (id: string): string =>
  id.trim().replace(/^<+/, "").replace(/>+$/, "").trim();

// --- bounds ----------------------------------------------------------------------------------

const MAX_INPUT = 64 * 1024 * 1024;
/** Header block of one part (mailsplit errors at 1 MB). */
const MAX_HEAD = 128 * 1024;
const MAX_HEADER_LINES = 1000;
const MAX_NODES = 100;
const MAX_DEPTH = 12;
/** Subject, From, Date, Message-ID values. */
const MAX_FIELD = 8 * 1024;
/** mailsplit flushes an unterminated last line of 64 KiB or more differently. */
const MAX_TAIL = 60 * 1024;

class Decline extends Error {}
const DECLINE = new Decline("decline");
function decline(): never {
  throw DECLINE;
}

// --- bytes and charsets ----------------------------------------------------------------------

type Bytes = Uint8Array;

const buf = (b: Bytes, start = 0, end = b.length): Buffer =>
  Buffer.from(b.buffer, b.byteOffset + start, end - start);

const latin1 = (b: Bytes, start: number, end: number): string =>
  buf(b, start, end).toString("latin1");

/** iconv-lite's windows-1252 for 0x80–0x9F (undefined bytes → U+FFFD). */
const CP1252_HIGH = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039,
  0x0152, 0xfffd, 0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
  0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
];

function cp1252(b: Buffer): string {
  const s = b.toString("latin1");
  return /[\x80-\x9f]/.test(s)
    ? s.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80]!))
    : s;
}

/** The names libmime's first-pass table maps to these two (others: decline). */
const UTF8_NAMES = new Set(["unicode-1-1-utf-8", "utf-8", "utf8"]);
const CP1252_NAMES = new Set([
  "ansi_x3.4-1968",
  "ascii",
  "cp1252",
  "cp819",
  "csisolatin1",
  "ibm819",
  "iso-8859-1",
  "iso-ir-100",
  "iso8859-1",
  "iso88591",
  "iso_8859-1",
  "iso_8859-1:1987",
  "l1",
  "latin1",
  "us-ascii",
  "windows-1252",
  "x-cp1252",
]);

/** libmime normalizeCharset, for the names handled here; null for any other. */
function normCharset(name: string): "UTF-8" | "windows-1252" | null {
  const n = name.toLowerCase().trim();
  if (UTF8_NAMES.has(n)) return "UTF-8";
  if (CP1252_NAMES.has(n)) return "windows-1252";
  return null;
}

// --- RFC 2047 (libmime decodeWords / decodeWord) ---------------------------------------------

function decodeWord(charsetIn: string, encodingIn: string, text: string): string {
  let charset = charsetIn;
  const star = charset.indexOf("*");
  if (star >= 0) charset = charset.slice(0, star);
  const cs = normCharset(charset);
  if (!cs) decline();
  const encoding = encodingIn.toUpperCase();
  let bytes: Buffer;
  if (encoding === "Q") {
    const s = text.replace(/=\s+([0-9a-fA-F])/g, "=$1").replace(/[_\s]/g, " ");
    const src = Buffer.from(s);
    const out: number[] = [];
    for (let i = 0, len = src.length; i < len; i++) {
      const c = src[i]!;
      if (i <= len - 2 && c === 0x3d && isHex(src[i + 1]) && isHex(src[i + 2])) {
        out.push(hexVal(src[i + 1]!) * 16 + hexVal(src[i + 2]!));
        i += 2;
        continue;
      }
      out.push(c);
    }
    bytes = Buffer.from(out);
  } else {
    // B (the regex only lets Q and B through): libbase64.decode
    if (!/^[A-Za-z0-9+/=]*$/.test(text)) decline();
    const pad = text.indexOf("=");
    const segments =
      pad >= 0 && /[a-zA-Z0-9+/\-_]/.test(text.slice(pad)) ? text.split(/=+/) : [text];
    const parts: Buffer[] = [];
    for (let seg of segments) {
      if (segments.length === 1 && pad >= 0) seg = seg.slice(0, pad);
      if (!seg) continue;
      if (seg.length % 4 === 1) decline();
      parts.push(Buffer.from(seg, "base64"));
    }
    bytes = Buffer.concat(parts);
  }
  return cs === "UTF-8" ? bytes.toString("utf-8") : cp1252(bytes);
}

const isHex = (c: number | undefined): boolean =>
  c !== undefined &&
  ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46));
const hexVal = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);

/** libmime's join marker is "__\x00JOIN\x00__"; input with a NUL or this one is declined. */
const JOIN = "__\ue000JOIN\ue000__";

function joinable(match: string, left: string, chLeft: string, chRight: string): string {
  const a = normCharset(chLeft || "");
  const b = normCharset(chRight || "");
  if (!a || !b) decline();
  return a === b ? `${left}${JOIN}` : match;
}

/** libmime decodeWords, step for step. */
function decodeWords(str: string): string {
  if (str.includes("\x00") || str.includes("\ue000")) decline();
  if (!str.includes("=?")) return str;
  return str
    .replace(/(=\?([^?]+)\?[Bb]\?[^?]*\?=)\s*(?==\?([^?]+)\?[Bb]\?[^?]*\?=)/g, joinable)
    .replace(/(=\?([^?]+)\?[Qq]\?[^?]*\?=)\s*(?==\?([^?]+)\?[Qq]\?[^?]*\?=)/g, joinable)
    .replace(/(\?=)?__\ue000JOIN\ue000__(=\?([^?]+)\?[QqBb]\?)?/g, "")
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?[^?]+\?[QqBb]\?[^?]*\?=)/g, "$1")
    .replace(/=\?([\w_\-*]+)\?([QqBb])\?([^?]*)\?=/g, (_m, cs: string, enc: string, text: string) =>
      decodeWord(cs, enc, text),
    );
}

// --- headers (mailsplit Headers, libmime decodeHeader / parseHeaderValue) ----------------------

type HeaderLine = { key: string; line: string };

const isFolding = (s: string): boolean => {
  const c = s.charCodeAt(0);
  return c === 0x20 || c === 0x09;
};

/** mailsplit Headers._parseHeaders over one part's header block (latin1 string). */
function headerLinesOf(block: string): HeaderLine[] {
  let end = block.length;
  while (end > 0) {
    const c = block.charCodeAt(end - 1);
    if (c !== 0x0d && c !== 0x0a) break;
    end--;
  }
  const raw = block.slice(0, end).split(/\r?\n/);
  if (raw.length > MAX_HEADER_LINES) decline();
  let i = 1;
  let first = raw[0]!;
  while (i < raw.length && isFolding(raw[i]!)) first += `\r\n${raw[i++]}`;
  // an mbox "From " line or an HTTP POST line is not kept as a header: leave those to mailparser
  if (/^From /i.test(first) || /^POST /i.test(first)) decline();
  const keyOf = (l: string) => {
    const colon = l.indexOf(":");
    return colon < 0 ? "" : l.slice(0, colon).toLowerCase().trim();
  };
  const lines: HeaderLine[] = [{ key: keyOf(first), line: first }];
  for (; i < raw.length; i++) {
    const cur = raw[i]!;
    if (isFolding(cur)) {
      const entry = lines[lines.length - 1]!;
      entry.line += `\r\n${cur}`;
      if (!entry.key) entry.key = keyOf(entry.line);
    } else {
      lines.push({ key: keyOf(cur), line: cur });
    }
  }
  return lines;
}

/** libmime decodeHeader(line).value (no regex backtracking). */
function headerValue(line: string): string {
  const s = line.replace(/(?:\r?\n|\r)[ \t]*/g, " ").trim();
  const colon = s.indexOf(":");
  return colon > 0 ? s.slice(colon + 1).trim() : "";
}

/** mailparser's value of a header: decodeHeader, trim, then the latin1 bytes read as UTF-8. */
function fieldValue(line: string): string {
  const v = headerValue(line).trim();
  return /[\u0080-\uffff]/.test(v) ? Buffer.from(v, "latin1").toString("utf8") : v;
}

const isWSP = (c: string): boolean =>
  c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\f" || c === "\v";

type Structured = { value: string; params: Map<string, string>; extended: boolean };

/** libmime parseHeaderValue without RFC 2231 continuations (flagged in `extended`). */
function parseHeaderValue(str: string): Structured {
  const params = new Map<string, string>();
  let key: string | false = false;
  let value = "";
  let valueEnd = 0;
  let stageKey = false;
  let quote = false;
  let escaped = false;
  let main = "";
  let dup = false;
  const set = (k: string, v: string) => {
    if (params.has(k)) dup = true;
    params.set(k, v);
  };
  const commit = () => {
    const collected = value.substring(0, valueEnd);
    value = "";
    valueEnd = 0;
    if (stageKey) {
      if (collected) set(collected.toLowerCase(), "");
    } else if (key === false) main = collected;
    else set(key, collected);
  };
  for (let i = 0; i < str.length; i++) {
    const chr = str.charAt(i);
    if (stageKey) {
      if (chr === "=") {
        key = value.substring(0, valueEnd).toLowerCase();
        value = "";
        valueEnd = 0;
        stageKey = false;
      } else if (chr === ";") commit();
      else if (isWSP(chr)) {
        if (value.length) value += chr;
      } else {
        value += chr;
        valueEnd = value.length;
      }
    } else {
      if (escaped) {
        value += chr;
        valueEnd = value.length;
      } else if (chr === "\\") {
        escaped = true;
        continue;
      } else if (chr === '"') quote = !quote;
      else if (!quote && chr === ";") {
        commit();
        stageKey = true;
      } else if (!quote && isWSP(chr)) {
        if (value.length) value += chr;
      } else {
        value += chr;
        valueEnd = value.length;
      }
      escaped = false;
    }
  }
  commit();
  let extended = dup;
  for (const k of params.keys()) if (k.includes("*")) extended = true;
  return { value: main, params, extended };
}

// --- the splitter (mailsplit MessageSplitter on one chunk) -----------------------------------

type Part = {
  parent: Part | null;
  depth: number;
  /** The boundary of the multipart this part sits in, and that multipart. */
  parentBoundary: Bytes | null;
  owner: Part | null;
  headStart: number;
  headEnd: number;
  inHead: boolean;
  headers: HeaderLine[];
  contentType: string;
  multipart: boolean;
  boundary: Bytes | null;
  encoding: string;
  charset: string | false;
  disposition: string | false;
  bodyStart: number;
  bodyEnd: number;
  children: Part[];
  /** Inline text/plain or text/html (mailparser decodes those). */
  inlineText: boolean;
  textContent: string;
};

function newPart(parent: Part | null, at: number): Part {
  const depth = parent ? parent.depth + 1 : 0;
  if (depth > MAX_DEPTH) decline();
  const p: Part = {
    parent,
    depth,
    parentBoundary: parent ? parent.boundary : null,
    owner: parent,
    headStart: at,
    headEnd: at,
    inHead: true,
    headers: [],
    contentType: "",
    multipart: false,
    boundary: null,
    encoding: "",
    charset: false,
    disposition: false,
    bodyStart: -1,
    bodyEnd: -1,
    children: [],
    inlineText: false,
    textContent: "",
  };
  if (parent) parent.children.push(p);
  return p;
}

/** compareBoundary: 1 next part, 2 end of multipart, 0 no. */
function compareBoundary(b: Bytes, ls: number, le: number, startpos: number, bnd: Bytes): number {
  const len = le - ls;
  if (len < bnd.length + 3 + startpos || len > bnd.length + 6 + startpos) return 0;
  for (let i = 0; i < bnd.length; i++) if (b[ls + i + 2 + startpos] !== bnd[i]) return 0;
  let pos = 0;
  for (let i = ls + bnd.length + 2 + startpos; i < le; i++) {
    const c = b[i];
    if (pos === 0 && (c === 0x0d || c === 0x0a)) return 1;
    if (pos === 0 && c !== 0x2d) return 0;
    if (pos === 1 && c !== 0x2d) return 0;
    if (pos === 2 && c !== 0x0d && c !== 0x0a) return 0;
    if (pos === 3 && c !== 0x0a) return 0;
    pos++;
  }
  return 2;
}

function checkBoundary(b: Bytes, ls: number, le: number, node: Part, inEpilogue: boolean): number {
  const len = le - ls;
  let startpos = 0;
  if (len >= 1 && (b[ls] === 0x0d || b[ls] === 0x0a)) {
    startpos++;
    if (len >= 2 && b[ls] === 0x0d && b[ls + 1] === 0x0a) startpos++;
  }
  if (len < 4 || b[ls + startpos] !== 0x2d || b[ls + startpos + 1] !== 0x2d) return 0;
  if (!inEpilogue && node.boundary) {
    const r = compareBoundary(b, ls, le, startpos, node.boundary);
    if (r) return r;
  }
  if (node.parentBoundary) {
    const r = compareBoundary(b, ls, le, startpos, node.parentBoundary);
    if (r) return r + 2;
  }
  return 0;
}

const CT_SHAPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;
const TEXT_TYPES = new Set(["text/plain", "text/html", "message/delivery-status"]);

/** mailsplit MimeNode.parseHeaders + mailparser createNode, for the shapes handled here. */
function parseHeaders(b: Bytes, p: Part): void {
  if (p.headEnd - p.headStart > MAX_HEAD) decline();
  p.headers = headerLinesOf(latin1(b, p.headStart, p.headEnd));
  let ct: HeaderLine | null = null;
  let cte: HeaderLine | null = null;
  let cd: HeaderLine | null = null;
  for (const h of p.headers) {
    if (h.key === "content-type") {
      if (ct) decline();
      ct = h;
    } else if (h.key === "content-transfer-encoding") {
      if (cte) decline();
      cte = h;
    } else if (h.key === "content-disposition") {
      if (cd) decline();
      cd = h;
    }
  }
  // structural headers: plain ASCII only (mailsplit reads them through a UTF-8 check)
  const asciiValue = (h: HeaderLine | null): string => {
    if (!h) return "";
    if (/[\u0080-\uffff]/.test(h.line)) decline();
    return headerValue(h.line).trim();
  };
  const disp = cd ? parseHeaderValue(asciiValue(cd)) : null;
  if (!ct && cd) decline(); // the type would come from the file name
  const type = ct ? parseHeaderValue(asciiValue(ct)) : null;
  if (type?.extended) decline();
  p.contentType = type ? type.value.toLowerCase().trim() : "text/plain";
  if (!CT_SHAPE.test(p.contentType)) decline();
  if (p.contentType.startsWith("message/")) decline();
  const encoding = asciiValue(cte).toLowerCase().trim();
  if (encoding.includes("(")) decline();
  p.encoding = encoding;
  p.charset = type?.params.get("charset") || false;
  const dispValue = disp ? disp.value.toLowerCase().trim() : "";
  if (dispValue.includes("=?") || dispValue.includes("\x00")) decline();
  p.disposition = dispValue || false;
  const format = type?.params.get("format");
  if (format !== undefined && format.toLowerCase().trim() === "flowed") decline();
  p.multipart = p.contentType.startsWith("multipart/");
  const boundary = type?.params.get("boundary");
  if (boundary) {
    if (!p.multipart || !/^[\x20-\x7e]+$/.test(boundary)) decline();
    p.boundary = Buffer.from(boundary, "latin1");
  } else if (p.multipart) decline();

  if (!p.multipart) {
    let d = p.disposition;
    if (d && d !== "attachment" && d !== "inline") d = "attachment";
    const isText = TEXT_TYPES.has(p.contentType);
    const disposition = !d && !isText ? "attachment" : d || "inline";
    if (isText && disposition === "inline") {
      if (p.contentType === "message/delivery-status") decline();
      p.inlineText = true;
    }
  }
}

type Tree = { root: Part; parts: Part[] };

function split(b: Bytes): Tree {
  const len = b.length;
  const root = newPart(null, 0);
  const parts = [root];
  let node = root;
  let inEpilogue = false;

  /** `kept`: the line end in front was already kept back (the unterminated last line). */
  const endBody = (p: Part, lineStart: number, kept: boolean) => {
    if (p.inHead) decline(); // mailsplit drops (or half-reads) a part closed inside its headers
    if (p.multipart || p.bodyEnd >= 0) return;
    let end = lineStart;
    // the line end in front of a delimiter belongs to the delimiter
    if (!kept && end > p.bodyStart && b[end - 1] === 0x0a) {
      end--;
      if (end > p.bodyStart && b[end - 1] === 0x0d) end--;
    }
    if (end === p.bodyStart && lineStart > p.bodyStart) decline(); // a body of one line end
    p.bodyEnd = end;
  };

  const startPart = (parent: Part | null, at: number) => {
    if (parts.length >= MAX_NODES || !parent) decline();
    node = newPart(parent, at);
    parts.push(node);
    inEpilogue = false;
  };

  /** processLine; returns false when the line was a delimiter. */
  const line = (ls: number, le: number, final: boolean, kept: boolean) => {
    const bnd = checkBoundary(b, ls, le, node, inEpilogue);
    if (bnd) {
      switch (bnd) {
        case 1: // first/next child of the current multipart
          if (node.inHead) decline();
          startPart(node, le);
          return;
        case 2:
          return;
        case 3: // next sibling
          endBody(node, ls, kept);
          startPart(node.owner, le);
          return;
        default: {
          // case 4: the multipart this part sits in ends
          endBody(node, ls, kept);
          const owner = node.owner;
          if (!owner) decline();
          node = owner;
          inEpilogue = true;
          return;
        }
      }
    }
    if (node.inHead) {
      const n = le - ls;
      if (
        final ||
        (n === 1 && b[ls] === 0x0a) ||
        (n === 2 && b[ls] === 0x0d && b[ls + 1] === 0x0a)
      ) {
        node.headEnd = le;
        node.inHead = false;
        parseHeaders(b, node);
        node.bodyStart = le;
      } else if (le - node.headStart > MAX_HEAD) decline();
    }
  };

  let pos = 0;
  let lastWasBody = false;
  while (pos < len) {
    if (node === root && !root.inHead && !root.multipart) {
      // a single-part message: no delimiter applies to its body, only its last line matters
      const last = b.lastIndexOf(0x0a);
      if (last >= pos) pos = last + 1;
      lastWasBody = false;
      break;
    }
    const nl = b.indexOf(0x0a, pos);
    if (nl < 0) break;
    const le = nl + 1;
    const wasHead = node.inHead;
    const before = node;
    line(pos, le, false, false);
    // whether this line became body of a (non-multipart) part: mailsplit keeps its line end back
    lastWasBody = !wasHead && node === before && !node.inHead && !node.multipart;
    pos = le;
  }
  // the unterminated rest, with the line end kept back from a non-root part's body in front
  let tailStart = pos;
  if (lastWasBody && node.parent && pos > node.bodyStart) {
    let t = pos;
    if (b[t - 1] === 0x0a) {
      t--;
      if (t > node.bodyStart && b[t - 1] === 0x0d) t--;
    }
    tailStart = t;
  }
  if (len - tailStart >= MAX_TAIL) decline();
  line(tailStart, len, true, tailStart < pos);
  for (const p of parts) {
    if (p.inHead) decline();
    if (!p.multipart && p.bodyEnd < 0) p.bodyEnd = len;
  }
  return { root, parts };
}

// --- bodies ----------------------------------------------------------------------------------

/** libqp decode: trailing white space off every line, soft breaks out, =XX decoded. */
function decodeQP(b: Bytes, start: number, end: number): Buffer {
  const n = end - start;
  const a = Buffer.allocUnsafe(n);
  let o = 0;
  let ws = -1;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === 0x20 || c === 0x09) {
      if (ws < 0) ws = o;
    } else if (c === 0x0d || c === 0x0a) {
      if (ws >= 0) o = ws;
      ws = -1;
    } else ws = -1;
    a[o++] = c;
  }
  if (ws >= 0) o = ws;
  // soft line breaks: "=" before CRLF, LF or the end (in place: the write index never passes
  // the read index)
  let m = 0;
  for (let i = 0; i < o; i++) {
    const c = a[i]!;
    if (c === 0x3d) {
      if (i + 1 === o) break;
      if (a[i + 1] === 0x0a) {
        i += 1;
        continue;
      }
      if (a[i + 1] === 0x0d && i + 2 < o && a[i + 2] === 0x0a) {
        i += 2;
        continue;
      }
    }
    a[m++] = c;
  }
  // =XX (in place again)
  let k = 0;
  for (let i = 0; i < m; i++) {
    const c = a[i]!;
    if (c === 0x3d && i + 2 < m && isHex(a[i + 1]) && isHex(a[i + 2])) {
      a[k++] = hexVal(a[i + 1]!) * 16 + hexVal(a[i + 2]!);
      i += 2;
      continue;
    }
    a[k++] = c;
  }
  return a.subarray(0, k);
}

/** Clean base64 only (alphabet, line ends, blanks; padding at the very end): else decline. */
function decodeBase64(b: Bytes, start: number, end: number): Buffer {
  const chars = Buffer.allocUnsafe(end - start);
  let n = 0;
  let pad = 0;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === 0x0d || c === 0x0a || c === 0x20 || c === 0x09) continue;
    if (c === 0x3d) {
      pad++;
      chars[n++] = c;
      continue;
    }
    if (
      pad > 0 ||
      !(
        (c >= 0x41 && c <= 0x5a) ||
        (c >= 0x61 && c <= 0x7a) ||
        (c >= 0x30 && c <= 0x39) ||
        c === 0x2b ||
        c === 0x2f
      )
    )
      decline();
    chars[n++] = c;
  }
  if (pad > 2 || n % 4 !== 0) decline();
  return Buffer.from(chars.toString("latin1", 0, n), "base64");
}

const MAX_SCRATCH = 1024 * 1024;
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * CRLF → LF on bytes (what mailparser's .replace(/\r?\n/g, "\n") does on the decoded text; a CR
 * or LF byte is never part of a UTF-8 or windows-1252 sequence, so doing it first is the same).
 * `owned`: src may be changed in place.
 */
function dropCrBeforeLf(src: Buffer, owned: boolean): Buffer {
  const n = src.length;
  let cr = src.indexOf(0x0d);
  if (cr < 0) return src;
  let o: Buffer;
  if (owned) o = src;
  else if (n <= MAX_SCRATCH) {
    // a reused, cache-warm buffer: the result is read (decoded) at once and then let go
    if (scratch.length < n)
      scratch = Buffer.allocUnsafe(Math.min(MAX_SCRATCH, Math.max(n, scratch.length * 2)));
    scratch.set(src);
    o = scratch.subarray(0, n);
  } else o = Buffer.from(src);
  let w = 0;
  let seg = 0;
  while (cr >= 0) {
    if (o[cr + 1] === 0x0a) {
      if (w !== seg) o.copyWithin(w, seg, cr);
      w += cr - seg;
      seg = cr + 1;
    }
    cr = o.indexOf(0x0d, cr + 1);
  }
  if (w !== seg) o.copyWithin(w, seg, n);
  w += n - seg;
  return o.subarray(0, w);
}

function textOf(b: Bytes, p: Part): string {
  const start = p.bodyStart;
  const end = p.bodyEnd;
  if (end <= start) return "";
  let bytes: Buffer;
  switch (p.encoding) {
    case "":
    case "7bit":
    case "8bit":
    case "binary":
      bytes = dropCrBeforeLf(buf(b, start, end), false);
      break;
    case "quoted-printable":
      bytes = dropCrBeforeLf(decodeQP(b, start, end), true);
      break;
    case "base64":
      bytes = dropCrBeforeLf(decodeBase64(b, start, end), true);
      break;
    default:
      decline();
  }
  const charset = p.charset || "utf-8";
  const key = charset.toLowerCase().replace(/[^a-z0-9]+/g, "");
  if (key === "ascii" || key === "usascii" || key === "utf8") return bytes.toString("utf8");
  if (normCharset(charset) === "windows-1252") return cp1252(bytes);
  decline();
}

// --- root fields -----------------------------------------------------------------------------

const ADDRESS = /^[A-Za-z0-9!#$%&'*+/=^_`{|}~.-]+@[A-Za-z0-9.-]+$/;

/** addressparser + decodeAddresses for three shapes: a@b, Name <a@b>, "Name" <a@b>. */
function fromOf(v: string): { address: string; name: string } | null {
  if (v === "") return null;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) decline(); // controls, backslash
  }
  let name: string;
  let address: string;
  const lt = v.indexOf("<");
  if (lt < 0) {
    if (!ADDRESS.test(v)) decline();
    address = v;
    name = "";
  } else {
    if (v.charCodeAt(v.length - 1) !== 0x3e || v.indexOf(">") !== v.length - 1) decline();
    if (v.indexOf("<", lt + 1) >= 0) decline();
    address = v.slice(lt + 1, -1);
    if (!ADDRESS.test(address)) decline();
    const before = v.slice(0, lt);
    if (before.charCodeAt(0) === 0x22) {
      const close = before.indexOf('"', 1);
      if (close < 0 || before.slice(close + 1).trim() !== "") decline();
      if (/[\t]/.test(before.slice(close + 1))) decline();
      name = before.slice(1, close).trim();
    } else {
      if (/["(),:;<>@[\]]/.test(before)) decline();
      name = before.trim();
    }
  }
  if (address.toLowerCase().includes("xn--")) decline();
  if (name === address) name = "";
  name = name.trim();
  if (name) name = decodeWords(name);
  return { address: address.trim().toLowerCase(), name };
}

/** mailparser getTextContent with skipHtmlToText / skipTextToHtml. */
function textContent(tree: Tree): { html: string | null; text: string | null } {
  let hasText = false;
  let hasHtml = false;
  for (const p of tree.parts) {
    if (!p.inlineText) continue;
    if (p.contentType === "text/plain") hasText = true;
    else hasHtml = true;
  }
  const text: string[] = [];
  const html: string[] = [];
  const visit = (alternative: boolean, p: Part) => {
    if (p.textContent) {
      if (p.contentType === "text/plain") {
        text.push(p.textContent);
        if (!alternative && hasHtml) html.push("");
      } else if (p.contentType === "text/html") {
        if ((!alternative && hasText) || (p === tree.root && !hasText)) text.push("");
        html.push(p.textContent);
      }
    }
    const alt = alternative || p.contentType === "multipart/alternative";
    for (const c of p.children) visit(alt, c);
  };
  visit(false, tree.root);
  const h = html.length ? html.join("<br/>\n") : "";
  const t = text.length ? text.join("\n") : "";
  return { html: h || null, text: t || null };
}

function read(b: Bytes): MailMessage {
  if (b.length === 0 || b.length > MAX_INPUT) decline();
  const tree = split(b);
  for (const p of tree.parts) if (p.inlineText) p.textContent = textOf(b, p);
  const { html, text } = textContent(tree);

  const headers: MailMessage["headers"] = [];
  const single = new Map<string, string>();
  for (const hl of tree.root.headers) {
    const h = splitHeaderLine(hl.line);
    if (h) headers.push(h);
    const k = hl.key;
    if (k === "subject" || k === "from" || k === "date" || k === "message-id") {
      if (single.has(k)) decline();
      if (hl.line.length > MAX_FIELD) decline();
      single.set(k, fieldValue(hl.line));
    }
  }
  const subjectRaw = single.get("subject");
  const subject = subjectRaw ? decodeWords(subjectRaw) : "";
  const fromRaw = single.get("from");
  const from = fromRaw === undefined ? null : fromOf(fromRaw);
  const dateRaw = single.get("date");
  let date: Date | null = null;
  if (dateRaw !== undefined) {
    date = new Date(dateRaw);
    if (Number.isNaN(date.getTime())) decline(); // mailparser would say "now"
  }
  const idRaw = single.get("message-id");
  let messageId: string | null = null;
  if (idRaw) {
    let id = decodeWords(idRaw);
    if (id.length) {
      if (id.charAt(0) !== "<") id = `<${id}`;
      if (id.charAt(id.length - 1) !== ">") id += ">";
      messageId = stripBrackets(id) || null;
    }
  }
  return { messageId, from, subject, date, html, text, headers };
}

/**
 * The MailMessage parseMail's mailparser path would give for `raw`, or null when this reader
 * does not handle its shape (the caller then asks mailparser). Never throws.
 */
export function fastParse(raw: Uint8Array): MailMessage | null {
  try {
    // a plain typed-array view: its indexOf is cheaper than Buffer's
    return read(new Uint8Array(raw.buffer, raw.byteOffset, raw.length));
  } catch {
    return null;
  }
}
