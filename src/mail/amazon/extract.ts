/**
 * From a MailMessage to what it says about orders. Two steps:
 *
 * 1. `buildDoc`: the HTML part (or the text part when there is no HTML) becomes a flat document:
 *    lines of visible text (block elements and table cells end a line; entities decoded,
 *    invisible characters dropped, white space collapsed), the links with their position, title,
 *    text and images, and the price amounts Amazon's 2025 templates put in aria-labels. HTML is
 *    read with htmlparser2's streaming tokenizer (linear time, no DOM, no recursion), capped at
 *    MAX_HTML_CHARS; comments, <script>, <style> and <title> are skipped, which also drops the
 *    Outlook-only copies inside conditional comments.
 * 2. `extractOrders`: order numbers, then per order its items, ship-to, estimate, tracking,
 *    total. Every pattern below runs on one line at a time (lines are capped at MAX_LINE_CHARS)
 *    and has no nested unbounded quantifiers, so hostile mail cannot make it backtrack.
 *
 * Items come only from the order section: the document is cut at the first recommendation or
 * footer heading after the first order number ("Buy it again", "Customers who bought…", "Keep
 * shopping for", "We hope to see you again soon", "Unless otherwise noted"…), and a product link
 * whose Amazon ref tag or enclosing element is a recommendation widget's (pd_…, rtpb, qpr, sr_N,
 * p13n…) is never an item, wherever it stands.
 */
import { Parser, type ParserOptions } from "htmlparser2";
import type { Carrier } from "../../contract/index.ts";
import { detectCarrier } from "../../tracking/carrier-detect.ts";
import { type AmazonDomain, amazonDomainOf } from "./senders.ts";
import type { MailItem, MailKind, MailMessage, MailOrder } from "./types.ts";

export const MAX_HTML_CHARS = 2 * 1024 * 1024;
export const MAX_TEXT_CHARS = 1024 * 1024;
export const MAX_LINES = 20_000;
export const MAX_LINE_CHARS = 2_000;
export const MAX_LINKS = 5_000;
export const MAX_NAME_CHARS = 500;
/** Real mail nests tables a few dozen deep and has a few thousand tags; past these, stop reading. */
export const MAX_DEPTH = 1_000;
export const MAX_TAGS = 100_000;
const MAX_ADDRESS_CHARS = 300;
const MAX_ESTIMATE_CHARS = 200;
const MAX_ITEMS_PER_ORDER = 100;
/** Orders one message can be about, and order-number occurrences looked at. */
export const MAX_ORDERS = 50;
const MAX_OCCURRENCES = 1_000;
const MAX_AMOUNTS = 5_000;

// ---------------------------------------------------------------------------------------------
// Text helpers

/**
 * What `clean` does to each UTF-16 code unit: 0 keeps it, 1 is white space (exactly what JS's
 * `\s` and `trim` match: nbsp, U+2000–U+200A, U+FEFF…), 2 drops it (zero-width and formatting
 * characters Amazon pads preheaders with, bidi marks, combining grapheme joiner, variation
 * selectors). A table, not a regular expression: one pass over the text, no character class
 * holding combining marks, and the dropped set wins over white space (U+FEFF is dropped).
 * Surrogates are kept as they are, so pairs pass through whole.
 */
const CHAR_CLASS = (() => {
  const t = new Uint8Array(0x10000);
  const ws = [
    [0x09, 0x0d],
    [0x20, 0x20],
    [0xa0, 0xa0],
    [0x1680, 0x1680],
    [0x2000, 0x200a],
    [0x2028, 0x2029],
    [0x202f, 0x202f],
    [0x205f, 0x205f],
    [0x3000, 0x3000],
    [0xfeff, 0xfeff],
  ];
  const invisible = [
    [0x00ad, 0x00ad],
    [0x034f, 0x034f],
    [0x061c, 0x061c],
    [0x115f, 0x1160],
    [0x17b4, 0x17b5],
    [0x180b, 0x180e],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x206f],
    [0x3164, 0x3164],
    [0xfe00, 0xfe01],
    [0xfe0e, 0xfe0f],
    [0xfeff, 0xfeff],
    [0xffa0, 0xffa0],
  ];
  for (const [a = 0, b = 0] of ws) t.fill(1, a, b + 1);
  for (const [a = 0, b = 0] of invisible) t.fill(2, a, b + 1);
  return t;
})();

/**
 * `clean(s).slice(0, max)` in one pass that stops once `max` characters are out: invisible
 * characters dropped, every run of white space (nbsp included, invisible characters inside it
 * ignored) made one space, none at either end. Text that needs none of it is copied in slices.
 */
export function cleanCapped(s: string, max: number): string {
  const n = s.length;
  if (max <= 0) return "";
  let out = "";
  /** Start of the run of kept characters being copied as is; -1 when none is open. */
  let seg = -1;
  /** White space seen since the last kept character (and something is already out). */
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const k = CHAR_CLASS[c];
    if (k === 0) {
      if (seg < 0) {
        if (space) {
          out += " ";
          space = false;
          if (out.length >= max) return out;
        }
        seg = i;
      }
      if (out.length + (i - seg) >= max) return out + s.slice(seg, seg + max - out.length);
      continue;
    }
    // One plain space between two kept characters stays inside the run.
    if (c === 32 && seg >= 0 && i + 1 < n && CHAR_CLASS[s.charCodeAt(i + 1)] === 0) continue;
    if (seg >= 0) {
      out += s.slice(seg, i);
      seg = -1;
      if (out.length >= max) return out;
    }
    if (k === 1 && out !== "") space = true;
  }
  if (seg >= 0) {
    out += s.slice(seg, n);
    if (out.length > max) out = out.slice(0, max);
  }
  return out;
}

/** Invisible characters dropped, every run of white space (nbsp included) made one space. */
export const clean = (s: string): string => cleanCapped(s, Number.POSITIVE_INFINITY);

/** `capName` of a string that is already clean (or a slice of one: only its ends may be spaces). */
const capCleanName = (c0: string): string => {
  const c = c0.trim().replace(/…/g, "...");
  return c.length > MAX_NAME_CHARS ? c.slice(0, MAX_NAME_CHARS).trimEnd() : c;
};

const capName = (s: string): string => capCleanName(clean(s));

const isTruncated = (s: string): boolean => /(?:\.\.\.|…)$/.test(s);

// ---------------------------------------------------------------------------------------------
// The flat document

export type DocImage = { src: string; alt: string };
export type DocLink = {
  href: string;
  /** The link target, with Amazon's click-tracking redirect (gp/r.html, gp/f.html ?U=) undone. */
  url: URL | null;
  title: string;
  text: string;
  /** Index of the line the link starts on. */
  line: number;
  imgs: DocImage[];
  /** Inside an element whose class names a recommendation widget (p13n, asin-container…). */
  inRecWidget: boolean;
};
export type DocAmount = { value: string; line: number };
export type Doc = {
  lines: string[];
  links: DocLink[];
  amounts: DocAmount[];
  source: "html" | "text" | "none";
};

const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "caption",
  "center",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);
const SKIP_TAGS = new Set(["script", "style", "title", "template", "noscript", "xml", "svg"]);
const REC_CLASS = /p13n|asin-container|recommend|sims-|rtpb/i;
const ARIA_AMOUNT = /\bamount=(\d{1,9}(?:\.\d{1,2})?)\b/;

const NON_SPACE = /\S/;

const PARSER_OPTIONS: ParserOptions = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
};

type Frame = { name: string; rec: boolean; skip: boolean; link: boolean };

export function docFromHtml(htmlIn: string): Doc {
  const html = htmlIn.length > MAX_HTML_CHARS ? htmlIn.slice(0, MAX_HTML_CHARS) : htmlIn;
  const lines: string[] = [];
  const links: DocLink[] = [];
  const amounts: DocAmount[] = [];
  const stack: Frame[] = [];
  const openCount = new Map<string, number>();
  const linkStack: DocLink[] = [];
  let buf = "";
  let skipDepth = 0;
  let recDepth = 0;
  let tags = 0;
  let stopped = false;

  const flush = () => {
    if (buf === "") return;
    // Most text between block tags is white space only (clean would make it ""): skip the work.
    if (!NON_SPACE.test(buf)) {
      buf = "";
      return;
    }
    const s = cleanCapped(buf, MAX_LINE_CHARS);
    buf = "";
    if (s !== "" && lines.length < MAX_LINES) lines.push(s);
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stopped) return;
        if (++tags > MAX_TAGS || stack.length >= MAX_DEPTH) {
          // htmlparser2's own stack work grows faster than linearly with depth: stop here.
          stopped = true;
          parser.pause();
          return;
        }
        const cls = attribs.class ?? "";
        const frame: Frame = {
          name,
          rec: cls !== "" && REC_CLASS.test(cls),
          skip: SKIP_TAGS.has(name),
          link: false,
        };
        if (frame.rec) recDepth++;
        if (frame.skip) skipDepth++;
        if (BLOCK_TAGS.has(name)) flush();
        const aria = attribs["aria-label"];
        if (aria && aria.length < 500) {
          const m = ARIA_AMOUNT.exec(aria);
          if (m?.[1] && amounts.length < MAX_AMOUNTS)
            amounts.push({ value: m[1], line: lines.length });
        }
        if (name === "a" && skipDepth === 0) {
          const href = (attribs.href ?? "").trim();
          const link: DocLink = {
            href,
            url: null,
            title: clean((attribs.title ?? "").slice(0, 2000)),
            text: "",
            line: lines.length,
            imgs: [],
            inRecWidget: recDepth > 0,
          };
          frame.link = true;
          linkStack.push(link);
          if (links.length < MAX_LINKS) links.push(link);
        } else if (name === "img" && skipDepth === 0) {
          const top = linkStack[linkStack.length - 1];
          if (top && top.imgs.length < 5) {
            top.imgs.push({
              src: (attribs.src ?? "").trim().slice(0, 2000),
              alt: clean((attribs.alt ?? "").slice(0, 2000)),
            });
          }
        }
        stack.push(frame);
        openCount.set(name, (openCount.get(name) ?? 0) + 1);
      },
      onclosetag(name) {
        if (stopped || !openCount.get(name)) return;
        // htmlparser2 closes elements in order (implied closes included): pop down to `name`.
        for (;;) {
          const f = stack.pop();
          if (!f) break;
          openCount.set(f.name, (openCount.get(f.name) ?? 1) - 1);
          if (f.rec) recDepth--;
          if (f.skip) skipDepth--;
          if (f.link) {
            const l = linkStack.pop();
            if (l) l.text = cleanCapped(l.text, 1000);
          }
          if (BLOCK_TAGS.has(f.name)) flush();
          if (f.name === name) break;
        }
      },
      ontext(text) {
        if (stopped || skipDepth > 0) return;
        buf += text;
        const top = linkStack[linkStack.length - 1];
        if (top && top.text.length < 2000) top.text += text;
        if (buf.length > 20_000) flush();
      },
    },
    PARSER_OPTIONS,
  );
  parser.write(html);
  if (!stopped) parser.end();
  flush();
  for (const l of linkStack) l.text = cleanCapped(l.text, 1000);
  for (const l of links) l.url = resolveUrl(l.href);
  return { lines, links, amounts, source: "html" };
}

const TEXT_URL = /https?:\/\/[^\s<>"'\])]{1,2000}/g;

export function docFromText(textIn: string): Doc {
  const text = textIn.length > MAX_TEXT_CHARS ? textIn.slice(0, MAX_TEXT_CHARS) : textIn;
  const lines: string[] = [];
  const links: DocLink[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    if (lines.length >= MAX_LINES) break;
    const line = rawLine.slice(0, 20_000).replace(/^(?:[ \t]*>)+/, "");
    for (const m of line.matchAll(TEXT_URL)) {
      if (links.length >= MAX_LINKS) break;
      links.push({
        href: m[0],
        url: resolveUrl(m[0]),
        title: "",
        text: "",
        line: lines.length,
        imgs: [],
        inRecWidget: false,
      });
    }
    const s = cleanCapped(line.replace(TEXT_URL, " ").replace(/<\s*>/g, " "), MAX_LINE_CHARS);
    if (s !== "") lines.push(s);
  }
  return { lines, links, amounts: [], source: "text" };
}

/** The HTML part when there is one with any text in it; otherwise the text part. */
export function buildDoc(msg: MailMessage): Doc {
  if (msg.html) {
    const d = docFromHtml(msg.html);
    if (d.lines.length > 0) return d;
  }
  if (msg.text) return docFromText(msg.text);
  return { lines: [], links: [], amounts: [], source: "none" };
}

// ---------------------------------------------------------------------------------------------
// URLs, ASINs

/** Parses a link target; Amazon's click-tracking redirects are undone (up to two levels). */
export function resolveUrl(href: string, depth = 0): URL | null {
  if (!href || href.length > 4000) return null;
  let u: URL;
  try {
    u = new URL(href.trim());
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  if (depth < 2 && amazonDomainOf(u.hostname) && /\/gp\/[rf]\.html$/.test(u.pathname)) {
    const inner = u.searchParams.get("U");
    if (inner) {
      const abs = inner.startsWith("/") ? `${u.protocol}//${u.host}${inner}` : inner;
      const r = resolveUrl(abs, depth + 1);
      if (r) return r;
    }
  }
  return u;
}

const ASIN_PATH =
  /\/(?:dp|gp\/product|gp\/aw\/d|o\/ASIN|exec\/obidos\/ASIN|gp\/offer-listing)\/([A-Za-z0-9]{10})(?=[/?#&]|$)/;
const ASIN_SHAPE = /^(?:B[0-9A-Z]{9}|\d{9}[0-9X])$/;

/** The ASIN of an Amazon product link (/dp/, /gp/product/, ?asin=), or null. */
export function asinOf(u: URL | null): string | null {
  if (!u || !amazonDomainOf(u.hostname)) return null;
  const m = ASIN_PATH.exec(u.pathname.slice(0, 1000));
  let c = m?.[1]?.toUpperCase() ?? null;
  if (!c) {
    for (const [k, v] of u.searchParams) {
      if (k.toLowerCase() === "asin") {
        c = v.trim().toUpperCase();
        break;
      }
    }
  }
  return c && ASIN_SHAPE.test(c) ? c : null;
}

export const productUrl = (domain: AmazonDomain, asin: string): string =>
  `https://www.${domain}/dp/${asin}`;

/** Amazon's ref tag of a link ("pe_386300_442618370_pd_te_s_rp_im"), or "". */
function refOf(u: URL): string {
  const m = /\/ref=([^/?#]{1,200})/.exec(u.pathname.slice(0, 1000));
  return m?.[1] ?? u.searchParams.get("ref_") ?? u.searchParams.get("ref") ?? "";
}

/** Ref tags and parameters of Amazon's recommendation widgets (never the ordered items). */
const REC_REF =
  /(?:^|_)(?:pd_|pf_|sims|rtpb|qpr|sr_\d|p13n|sspa|agh\d|rvi|bia_|bsm|yo_rec|crec|recs?_)/i;
function isRecommendationLink(l: DocLink): boolean {
  if (l.inRecWidget) return true;
  const u = l.url;
  if (!u) return false;
  if (REC_REF.test(refOf(u))) return true;
  for (const k of ["pd_rd_i", "pd_rd_r", "pd_rd_w", "pf_rd_p", "pf_rd_r"]) {
    if (u.searchParams.has(k)) return true;
  }
  return /\/ref=(?:[^/]*_)?(?:lm|sr)(?:[/_]|$)/.test(u.pathname.slice(0, 1000));
}

const PRODUCT_IMAGE = /^https?:\/\/[^/]*(?:media-amazon\.com|images-amazon\.com)\/images\/I\//i;

// ---------------------------------------------------------------------------------------------
// Order numbers

/** Amazon order numbers: 3 digits (or D + 2 for digital orders), 7, 7. */
const ORDER_NUMBER = /(?<![\w-])([D\d]\d{2}-\d{7}-\d{7})(?![\w-])/g;
const ORDER_LABEL =
  /(?:order|ordine|bestell\w*|commande|pedido|bestelling|zamówienie|#|n[.°º]\s?|nr\.?)[\s:#.°º]*$/i;

export type OrderOcc = { number: string; line: number };

/** Order numbers written in the text with an order label before them ("Order #", "Ordine n."). */
export function textOrderNumbers(lines: string[]): OrderOcc[] {
  const out: OrderOcc[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!/\d{7}-\d{7}/.test(line)) continue;
    for (const m of line.matchAll(ORDER_NUMBER)) {
      const idx = m.index ?? 0;
      let before = line.slice(Math.max(0, idx - 40), idx);
      if (before.trim() === "" && i > 0) before = (lines[i - 1] ?? "").slice(-40);
      if (ORDER_LABEL.test(clean(before)) && m[1]) out.push({ number: m[1], line: i });
    }
  }
  return out;
}

/** Order numbers in link parameters (orderId=, orderID=) of Amazon links. */
export function linkOrderNumbers(links: DocLink[]): OrderOcc[] {
  const out: OrderOcc[] = [];
  for (const l of links) {
    const u = l.url;
    if (!u || !amazonDomainOf(u.hostname)) continue;
    for (const [k, v] of u.searchParams) {
      if (k.toLowerCase() !== "orderid") continue;
      const m = /^([D\d]\d{2}-\d{7}-\d{7})$/.exec(v.trim());
      if (m?.[1]) out.push({ number: m[1], line: l.line });
    }
  }
  return out;
}

/** An order number in the subject ("#113-…", "Order # 111-…", "(#113-…)"). */
export function subjectOrderNumber(subject: string): string | null {
  for (const m of subject.slice(0, 1000).matchAll(ORDER_NUMBER)) {
    const idx = m.index ?? 0;
    if (m[1] && ORDER_LABEL.test(subject.slice(Math.max(0, idx - 40), idx))) return m[1];
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Where the order section ends

const CUT_HEADINGS: RegExp[] = [
  /^buy it again\b/i,
  /^customers (?:who|also)\b/i,
  /^frequently bought\b/i,
  /^recommended (?:for you|based on|items)\b/i,
  /^recommendations? (?:for|based)\b/i,
  /^top picks\b/i,
  /^keep shopping\b/i,
  /^deals (?:related|for you|recommended|inspired)\b/i,
  /^inspired by\b/i,
  /^related to (?:items|your)\b/i,
  /^(?:you|we think you) (?:might|may) (?:also )?(?:like|be interested)\b/i,
  /^more items to (?:consider|explore)\b/i,
  /^sponsored\b/i,
  /^(?:your )?wish ?list\b/i,
  /^articoli della lista\b/i,
  /^(?:consigliati|raccomandati) per te\b/i,
  /^i clienti che hanno acquistato\b/i,
  /^kunden, die\b/i,
  /^(?:empfehlungen|unsere empfehlungen)\b/i,
  /^les clients ayant (?:acheté|consulté)\b/i,
  /^(?:recommandations|recommandé pour vous)\b/i,
  /^los clientes que compraron\b/i,
  /^we hope to see you again soon\b/i,
  /^a presto[,!.]?$/i,
  /^wir hoffen, (?:sie|dich) bald wieder/i,
  /^nous espérons vous revoir\b/i,
  /^unless otherwise noted\b/i,
  /^by placing your order\b/i,
  /^this e-?mail was sent from\b/i,
  /^(?:©|\(c\)) ?\d{4}/i,
];

/** Index of the first recommendation/footer heading at or after `from`; lines.length if none. */
export function findCut(lines: string[], from: number): number {
  for (let i = Math.max(0, from); i < lines.length; i++) {
    const l = lines[i] ?? "";
    if (l.length > 200) continue;
    if (CUT_HEADINGS.some((re) => re.test(l))) return i;
  }
  return lines.length;
}

// ---------------------------------------------------------------------------------------------
// Prices

const CUR_BEFORE =
  /(?:US\$|CA\$|CDN\$|C\$|AU\$|A\$|\$|£|€|EUR|GBP|USD|CAD|AUD|CHF|₹|INR|¥|JPY)\s?(\d[\d.,]{0,14})(?!\d)/;
const CUR_AFTER = /(?<![\d.,])(\d[\d.,]{0,14}\d|\d)\s?(?:€|EUR)(?![a-z])/i;

/** "1,234.56", "1.234,56", "107,34", "12" → "1234.56", "1234.56", "107.34", "12.00". */
export function normalisePrice(raw: string): string | null {
  let s = raw.replace(/[\s'’]/g, "").replace(/[.,]+$/, "");
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? "." : ",";
    const other = dec === "." ? "," : ".";
    s = s.split(other).join("");
    if (dec === ",") s = s.replace(",", ".");
  } else if (lastComma >= 0) {
    s =
      /,\d{1,2}$/.test(s) && s.split(",").length === 2
        ? s.replace(",", ".")
        : s.split(",").join("");
  } else if (lastDot >= 0) {
    if (/\.\d{3}$/.test(s) || s.split(".").length > 2) s = s.split(".").join("");
  }
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0 || n > 1e9) return null;
  return n.toFixed(2);
}

/** The first price written in `s` (symbol or code before the amount, or € after it). */
export function findPrice(s: string): { value: string; index: number; end: number } | null {
  const a = CUR_BEFORE.exec(s);
  const b = CUR_AFTER.exec(s);
  const m = a && b ? (a.index <= b.index ? a : b) : (a ?? b);
  if (!m?.[1]) return null;
  const value = normalisePrice(m[1]);
  return value ? { value, index: m.index, end: m.index + m[0].length } : null;
}

const PRICE_ONLY =
  /^-?\s?(?:(?:US\$|CA\$|CDN\$|C\$|AU\$|A\$|\$|£|€|EUR|GBP|USD|CAD|AUD|CHF|₹|INR|¥|JPY)\s?\d[\d.,]{0,14}|\d[\d.,]{0,14}\s?(?:€|EUR))$/i;

// ---------------------------------------------------------------------------------------------
// Fields, each looked for in a set of line ranges

type Range = [number, number];

function* rangeLines(lines: string[], ranges: Range[]): Generator<[number, string]> {
  for (const [a, b] of ranges) {
    for (let i = Math.max(0, a); i < Math.min(b, lines.length); i++) yield [i, lines[i] ?? ""];
  }
}

const TOTAL_STRONG =
  /(?:^|[^\p{L}])(?:order total|grand total|shipment total|total for this shipment|totale ordine|totale dell'ordine|gesamtbetrag|gesamtsumme|summe|total de la commande|montant total|importe total|total del pedido)(?!\p{L})\s*:?\s*/giu;
const TOTAL_WEAK = /(?:^|[^\p{L}])(?:totale|total|gesamt)(?!\p{L})\s*:?\s*/giu;

function findTotal(lines: string[], ranges: Range[]): string | null {
  for (const re of [TOTAL_STRONG, TOTAL_WEAK]) {
    for (const [i, line] of rangeLines(lines, ranges)) {
      re.lastIndex = 0;
      for (const m of line.matchAll(re)) {
        const rest = line.slice((m.index ?? 0) + m[0].length);
        if (rest === "") {
          const next = lines[i + 1] ?? "";
          if (PRICE_ONLY.test(next)) return findPrice(next)?.value ?? null;
          continue;
        }
        const p = findPrice(rest);
        if (p && p.index <= 2) return p.value;
      }
    }
  }
  return null;
}

const SHIP_TO_LABEL =
  /^(?:ship(?:ping)? to|deliver(?:ing)? to|your order (?:will be|was) sent to|sent to|shipping address|delivery address|l'ordine è stato spedito a|indirizzo di (?:spedizione|consegna)|spedito a|lieferadresse|lieferung an|versand an|adresse de livraison|livraison à|dirección de envío|enviar a)(?![\p{L}])\s*:?\s*(.*)$/iu;
const ADDRESS_STOP =
  /^(?:order|track|arriving|arrives|shipment|total|price|payment|paid|your |estimated|delivery|view|change|manage|return|qty|quantity|item|just ask|chiedi|alexa|ordine|totale|riepilogo|bestell|gesamt|commande|sold by|condition|dispatch|shipping|placed on)\b|:$/i;

function findShipTo(
  lines: string[],
  ranges: Range[],
  markerLines: number[],
  linkLines: Set<number>,
): string | null {
  for (const [i, line] of rangeLines(lines, ranges)) {
    const m = SHIP_TO_LABEL.exec(line);
    if (!m) continue;
    const parts: string[] = [];
    if (m[1]) parts.push(m[1]);
    for (let j = i + 1; j < lines.length && parts.length < 5; j++) {
      const l = lines[j] ?? "";
      if (l.length > 100 || ADDRESS_STOP.test(l) || findPrice(l) || /https?:/.test(l)) break;
      if (linkLines.has(j)) break;
      parts.push(l);
    }
    const s = parts.join(", ").slice(0, MAX_ADDRESS_CHARS).trim();
    if (s) return s;
  }
  // 2025 templates: "Arriving Thursday" / "Elliot - OAKLAND, CA" / "Order # 113-…".
  for (const ml of markerLines) {
    const prev = lines[ml - 1] ?? "";
    const prev2 = lines[ml - 2] ?? "";
    if (
      prev.length <= 120 &&
      / [-–] /.test(prev) &&
      !findPrice(prev) &&
      /^(?:arriving|arrives|arrived|delivered|out for delivery|now arriving|dispatched|shipped)\b/i.test(
        prev2,
      )
    ) {
      return prev.slice(0, MAX_ADDRESS_CHARS);
    }
  }
  return null;
}

const ARRIVING_LINE = /^(?:now )?(?:arriving|arrives)(?: early)?\b\s*:?\s*(.*)$/i;
const ESTIMATE_LABEL_AT_END =
  /(?:will arrive|estimated delivery(?: date)?(?: is)?|expected delivery(?: date)?(?: is)?|now arriving|arriving|arriverà|consegna prevista|voraussichtliche (?:lieferung|zustellung)|lieferung|livraison prévue(?: le)?|llegará)\s*:?$/i;
const NOW_EXPECTED = /\bnow expected\s+([^.]{3,80})/i;
const DELIVERED_TODAY = /\bwill be delivered (today|tomorrow)\b/i;
const WITHIN_DAYS = /\bwithin (\d{1,3}) (?:business |working )?days\b/i;

const tidyEstimate = (s: string): string =>
  clean(s)
    .replace(/[.!]+$/, "")
    .slice(0, MAX_ESTIMATE_CHARS)
    .trim();

/** A date line, joined with the next when it ends a range ("Wednesday, October 27 -"). */
function dateLineAt(lines: string[], j: number): string | null {
  const l = lines[j];
  if (!l || l.length > 120) return null;
  if (/[-–]$/.test(l) && lines[j + 1] && (lines[j + 1] ?? "").length <= 80) {
    return `${l} ${lines[j + 1]}`;
  }
  return l;
}

function findEstimate(lines: string[], ranges: Range[]): string | null {
  for (const [i, line] of rangeLines(lines, ranges)) {
    if (line.length > 600) continue;
    const a = ARRIVING_LINE.exec(line);
    if (a) {
      const rest = (a[1] ?? "").trim();
      if (rest !== "") return tidyEstimate(line);
      const next = dateLineAt(lines, i + 1);
      if (next) return tidyEstimate(next);
    }
    if (ESTIMATE_LABEL_AT_END.test(line)) {
      const next = dateLineAt(lines, i + 1);
      if (next) return tidyEstimate(next);
    }
    const ne = NOW_EXPECTED.exec(line);
    if (ne?.[1]) return tidyEstimate(ne[1]);
    const dt = DELIVERED_TODAY.exec(line);
    if (dt?.[1]) return dt[1].toLowerCase();
    const wd = WITHIN_DAYS.exec(line);
    if (wd) return tidyEstimate(wd[0]);
  }
  return null;
}

const TRACKING_LABEL =
  /(?:tracking (?:number|no\.?|id|#|code)|numero di (?:tracciabilit[aà]|tracking|spedizione)|sendungsnummer|trackingnummer|sendungsverfolgungsnummer|num[ée]ro de suivi|n[úu]mero de seguimiento)\s*(?:is|è|ist|est|es)?\s*:?\s*([A-Z0-9][A-Z0-9 -]{6,45})/i;
const AMAZON_LOGISTICS_NUMBER = /\bTB[ACM]\d{12}\b/;
const CARRIER_STATED =
  /(?:being sent by|being shipped (?:with|by|via)|shipped (?:with|via|by)|sent with|spedito con il corriere|con il corriere|versand (?:mit|durch)|versandt mit|expédiée? (?:par|avec)|enviado con)\s+([A-Za-z][A-Za-z0-9&.' -]{1,40})/i;
const CARRIER_LABEL =
  /(?:^|\s)(?:carrier|corriere|zusteller|transporteur|transportista|versanddienstleister)\s*:\s*([A-Za-z][A-Za-z0-9&.' -]{1,40})/i;

/** A tracking number as printed, reduced to letters and digits, or null when it is not one. */
function tidyTracking(raw: string): string | null {
  const tokens = raw.trim().split(/\s+/);
  let s = tokens[0] ?? "";
  for (const t of tokens.slice(1)) {
    if (/^\d+$/.test(t)) s += t;
    else break;
  }
  s = s.replace(/-/g, "").toUpperCase();
  if (!/^[A-Z0-9]{8,40}$/.test(s)) return null;
  if ((s.match(/\d/g) ?? []).length < 4) return null;
  return s;
}

function carrierFromName(name: string): Carrier {
  if (/\bups\b|united parcel/i.test(name)) return "UPS";
  if (/fed\s?ex/i.test(name)) return "FEDEX";
  if (/\busps\b|postal service/i.test(name)) return "USPS";
  if (/amazon/i.test(name)) return "AMAZON";
  return "OTHER";
}

const carrierName = (raw: string): string =>
  (raw.split(/[,.;:()]| and | e | und | et | y /i)[0] ?? "").trim();

function findTracking(
  lines: string[],
  ranges: Range[],
): { trackingnumber: string | null; carrier: Carrier | null } {
  let tracking: string | null = null;
  let stated: string | null = null;
  let labelled: string | null = null;
  for (const [, line] of rangeLines(lines, ranges)) {
    if (!tracking) {
      const m = TRACKING_LABEL.exec(line);
      if (m?.[1]) tracking = tidyTracking(m[1]);
    }
    if (!stated) {
      const c = CARRIER_STATED.exec(line);
      if (c?.[1]) stated = carrierName(c[1]) || null;
    }
    if (!labelled) {
      const c = CARRIER_LABEL.exec(line);
      if (c?.[1]) labelled = carrierName(c[1]) || null;
    }
  }
  if (!tracking) {
    for (const [, line] of rangeLines(lines, ranges)) {
      const m = AMAZON_LOGISTICS_NUMBER.exec(line);
      if (m) {
        tracking = m[0];
        break;
      }
    }
  }
  let carrier: Carrier | null = null;
  if (labelled) carrier = carrierFromName(labelled);
  else if (stated && tracking) carrier = carrierFromName(stated);
  else if (tracking) carrier = detectCarrier(tracking);
  return { trackingnumber: tracking, carrier };
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, number> = {
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function isoDay(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString();
}

/** "December 11, 2018" / "11 December 2018" (year given) → ISO midnight UTC. */
function dateWithYear(s: string): string | null {
  const a = /\b([A-Za-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/.exec(s);
  if (a) {
    const mo = MONTHS[(a[1] ?? "").toLowerCase()];
    if (mo) return isoDay(Number(a[3]), mo, Number(a[2]));
  }
  const b = /\b(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})\b/.exec(s);
  if (b) {
    const mo = MONTHS[(b[2] ?? "").toLowerCase()];
    if (mo) return isoDay(Number(b[3]), mo, Number(b[1]));
  }
  return null;
}

const PLACED_ON =
  /^(?:placed on|order placed|order date|ordered on|date ordered)\s*:?\s*(.{6,60})$/i;

function findPlacedOn(lines: string[], ranges: Range[]): string | null {
  for (const [, line] of rangeLines(lines, ranges)) {
    const m = PLACED_ON.exec(line);
    if (m?.[1]) {
      const d = dateWithYear(m[1]);
      if (d) return d;
    }
  }
  return null;
}

const DELIVERED_ON =
  /^(?:delivered|your package was delivered|consegnato|zugestellt)(?: on)?\s*:?\s*(?:[A-Za-z]+day,? )?([A-Za-z]{3,9})\.? (\d{1,2})(?:,? (\d{4}))?\b/i;

/** A delivery date the body states ("Delivered Friday, September 11"); else null. */
function findDeliveredOn(lines: string[], ranges: Range[], mailDate: Date | null): string | null {
  for (const [, line] of rangeLines(lines, ranges)) {
    const m = DELIVERED_ON.exec(line);
    if (!m) continue;
    const mo = MONTHS[(m[1] ?? "").toLowerCase()];
    if (!mo) continue;
    const day = Number(m[2]);
    let year = m[3] ? Number(m[3]) : mailDate ? mailDate.getUTCFullYear() : null;
    if (year === null) continue;
    if (!m[3] && mailDate && Date.UTC(year, mo - 1, day) > mailDate.getTime() + 2 * 86_400_000) {
      year -= 1;
    }
    if (
      mailDate &&
      mailDate.getUTCFullYear() === year &&
      mailDate.getUTCMonth() === mo - 1 &&
      mailDate.getUTCDate() === day
    ) {
      return mailDate.toISOString();
    }
    return isoDay(year, mo, day);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Items

type ItemDraft = {
  key: string;
  line: number;
  asin: string | null;
  domain: AmazonDomain | null;
  names: string[];
  image: string | null;
};

const GENERIC_NAME =
  /^(?:product image|image|item image|view|view item|details|track(?: your)? package|buy it again|view or (?:edit|manage) order|order details|write a review|qty:? ?\d*|quantity:? ?\d*|\d+|[-–—|•·])$/i;

function nameCandidates(l: DocLink): string[] {
  const out: string[] = [];
  // Titles, alts and texts of a Doc's links are already clean (texts cut after cleaning, so
  // capCleanName trims them): cleaning them again would change nothing.
  for (const s of [l.title, ...l.imgs.map((i) => i.alt), l.text]) {
    const c = capCleanName(s);
    if (c.length >= 2 && !GENERIC_NAME.test(c) && !/^https?:/i.test(c)) out.push(c);
  }
  return out;
}

const nameKey = (s: string): string =>
  s
    .toLowerCase()
    .replace(/(?:\.\.\.|…)$/, "")
    .trim();

/** Two names for one product: equal, or one the truncated start of the other. */
function sameName(a: string, b: string): boolean {
  const x = nameKey(a);
  const y = nameKey(b);
  if (x.length < 4 || y.length < 4) return x === y;
  return x.startsWith(y) || y.startsWith(x);
}

/** The product links of the order section, merged into one draft per product. */
function itemDrafts(doc: Doc, cut: number, fallbackDomain: AmazonDomain | null): ItemDraft[] {
  const drafts: ItemDraft[] = [];
  // Titles of links that show a product image: a link without a product URL is an item only
  // when it shows such an image itself or carries the same title as one that does.
  const pictured = new Set<string>();
  for (const l of doc.links) {
    if (l.line >= cut) break;
    const img = l.imgs.find((i) => PRODUCT_IMAGE.test(i.src));
    if (img && l.title) pictured.add(nameKey(l.title));
    if (img?.alt) pictured.add(nameKey(img.alt));
  }
  for (const l of doc.links) {
    if (l.line >= cut) break;
    if (isRecommendationLink(l)) continue;
    const asin = asinOf(l.url);
    const names = nameCandidates(l);
    const productImg = l.imgs.find((i) => PRODUCT_IMAGE.test(i.src));
    if (!asin) {
      // A link with no product URL (Amazon redacted or tracked it) is an item only when it
      // names a product: a product image with a name, or the title of a pictured product.
      const named = (s: string) => s.length >= 12 && /\s/.test(s) && !GENERIC_NAME.test(s);
      const altNamed = productImg && (named(productImg.alt) || named(l.title));
      const titledPictured = named(l.title) && pictured.has(nameKey(l.title));
      if (!altNamed && !titledPictured) continue;
    }
    const domain = (l.url && amazonDomainOf(l.url.hostname)) || fallbackDomain;
    const image = productImg ? productImg.src : null;
    let name = names[0];
    if (doc.source === "text" && !name && asin) {
      const prev = doc.lines[l.line - 1];
      if (prev && prev.length <= MAX_NAME_CHARS && !findPrice(prev) && !/:$/.test(prev)) {
        name = capName(prev);
      }
      if (name) names.push(name);
    }
    if (!asin && names.length === 0) continue;
    const prev = drafts[drafts.length - 1];
    const sameAsPrev =
      prev &&
      ((asin && prev.asin === asin) ||
        (!asin && !prev.asin && names.some((n) => prev.names.some((p) => sameName(n, p)))) ||
        (!asin && prev.asin && names.some((n) => prev.names.some((p) => sameName(n, p)))));
    if (prev && sameAsPrev) {
      prev.names.push(...names);
      prev.image ??= image;
      continue;
    }
    if (asin) {
      // The same product linked again further down (a second block for the same order).
      const earlier = drafts.find((d) => d.asin === asin);
      if (earlier) {
        earlier.names.push(...names);
        earlier.image ??= image;
        continue;
      }
    }
    drafts.push({
      key: asin ?? `name:${nameKey(names[0] ?? "")}`,
      line: l.line,
      asin,
      domain,
      names,
      image,
    });
  }
  return drafts.filter((d) => d.names.length > 0 || d.asin);
}

/** The longest full name; a truncated one ("…") only when there is nothing better. */
function bestName(names: string[]): string {
  const full = names.filter((n) => !isTruncated(n));
  const pool = full.length > 0 ? full : names;
  let best = "";
  for (const n of pool) if (n.length > best.length) best = n;
  return best;
}

const QUANTITY = /(?:quantity|qty|quantità|menge|anzahl|quantité|cantidad)\s*:?\s*(\d{1,4})\b/i;
const NOT_ITEM_PRICE =
  /total|subtotal|totale|summe|gesamt|postage|shipping|delivery|vat|iva|tax|paid|payment|refund|saving|last price|you saved|promotion|discount|coupon|estimated|%/i;

function itemDetails(
  doc: Doc,
  draft: ItemDraft,
  spanEnd: number,
): { price: string | null; quantity: number } {
  const end = Math.min(spanEnd, draft.line + 12, doc.lines.length);
  let quantity = 1;
  let price: string | null = null;
  for (let i = draft.line; i < end; i++) {
    const line = doc.lines[i] ?? "";
    const q = QUANTITY.exec(line);
    if (q && quantity === 1) {
      const n = Number(q[1]);
      if (n >= 1 && n <= 9999) quantity = n;
    }
  }
  const amount = doc.amounts.find((a) => a.line >= draft.line && a.line < end);
  if (amount) price = normalisePrice(amount.value);
  if (!price) {
    for (let i = draft.line; i < end && !price; i++) {
      const line = doc.lines[i] ?? "";
      if (NOT_ITEM_PRICE.test(line)) continue;
      price = findPrice(line)?.value ?? null;
    }
  }
  return { price, quantity };
}

/** Quotes around product names in subjects: straight, typographic, German and French. */
export const QUOTE_OPEN = /["“‘„«]/;
export function lastQuoteClose(s: string): number {
  return Math.max(...['"', "”", "“", "’", "»"].map((q) => s.lastIndexOf(q)));
}

/** The item a subject names: `Ordered: 2 "solaround Acrylic Side..."`, `Shipped: ‘X…’`. */
export function subjectItem(subject: string): MailItem | null {
  const s = clean(subject).slice(0, 1000);
  const open = s.search(QUOTE_OPEN);
  if (open < 0) return null;
  const close = lastQuoteClose(s);
  if (close <= open + 2) return null;
  const name = capName(s.slice(open + 1, close));
  if (name.length < 2) return null;
  const q = /(\d{1,3})\s*$/.exec(s.slice(Math.max(0, open - 6), open).trim());
  const quantity = q ? Number(q[1]) : 1;
  return {
    productname: name,
    asin: null,
    producturl: null,
    productimage: null,
    price: null,
    quantity: quantity >= 1 ? quantity : 1,
  };
}

// ---------------------------------------------------------------------------------------------
// Orders

export type Analysis = {
  /** Order numbers in order of appearance, with the lines they appear on. */
  numbers: string[];
  occurrences: OrderOcc[];
  /** Where the order section ends (first recommendation or footer heading). */
  cut: number;
};

/** Finds the order numbers and the end of the order section. */
export function analyse(doc: Doc, subject: string): Analysis {
  const text = textOrderNumbers(doc.lines);
  const params = linkOrderNumbers(doc.links);
  const firstMarker = Math.min(
    text[0]?.line ?? Number.POSITIVE_INFINITY,
    params[0]?.line ?? Number.POSITIVE_INFINITY,
  );
  const cut = findCut(doc.lines, Number.isFinite(firstMarker) ? firstMarker : 0);
  const textIn = text.filter((o) => o.line < cut);
  const paramsIn = params.filter((o) => o.line < cut);
  // Numbers written in the text win over link parameters, which win over the subject: public
  // samples show redacted subjects and links beside the real number in the text.
  let occurrences = textIn.length > 0 ? textIn : paramsIn;
  if (occurrences.length === 0) {
    const s = subjectOrderNumber(clean(subject));
    if (s) occurrences = [{ number: s, line: 0 }];
  }
  const numbers: string[] = [];
  for (const o of occurrences) {
    if (!numbers.includes(o.number) && numbers.length < MAX_ORDERS) numbers.push(o.number);
  }
  occurrences = occurrences.filter((o) => numbers.includes(o.number)).slice(0, MAX_OCCURRENCES);
  return { numbers, occurrences, cut };
}

export type ExtractContext = {
  subject: string;
  date: Date | null;
  kind: MailKind;
  /** The Amazon domain product URLs are built on when a link does not say. */
  domain: AmazonDomain | null;
  cancelScope: "order" | "items" | null;
};

/** The line ranges that belong to each order (several orders in one message). */
function orderRanges(a: Analysis, total: number): Map<string, Range[]> {
  const map = new Map<string, Range[]>();
  if (a.numbers.length <= 1) {
    if (a.numbers[0]) map.set(a.numbers[0], [[0, a.cut]]);
    return map;
  }
  const occ = [...a.occurrences].sort((x, y) => x.line - y.line);
  for (let k = 0; k < occ.length; k++) {
    const o = occ[k];
    if (!o) continue;
    let end = a.cut;
    for (let j = k + 1; j < occ.length; j++) {
      const n = occ[j];
      if (n && n.number !== o.number) {
        end = n.line;
        break;
      }
    }
    const list = map.get(o.number) ?? [];
    list.push([o.line, Math.min(end, total)]);
    map.set(o.number, list);
  }
  return map;
}

export function extractOrders(doc: Doc, a: Analysis, ctx: ExtractContext): MailOrder[] {
  if (a.numbers.length === 0) return [];
  const ranges = orderRanges(a, doc.lines.length);
  const drafts = itemDrafts(doc, a.cut, ctx.domain);
  const firstOcc = Math.min(...a.occurrences.map((o) => o.line));

  const orderOfLine = (line: number): string => {
    if (a.numbers.length === 1 || line < firstOcc) return a.numbers[0] ?? "";
    for (const [n, rs] of ranges) if (rs.some(([x, y]) => line >= x && line < y)) return n;
    return a.numbers[0] ?? "";
  };

  const itemsBy = new Map<string, MailItem[]>();
  drafts.forEach((d, idx) => {
    const next = drafts[idx + 1];
    const spanEnd = next ? next.line : a.cut;
    const { price, quantity } = itemDetails(doc, d, spanEnd);
    const domain = d.domain ?? ctx.domain;
    const item: MailItem = {
      productname: bestName(d.names) || d.asin || "",
      asin: d.asin,
      producturl: d.asin && domain ? productUrl(domain, d.asin) : null,
      productimage: d.image,
      price,
      quantity,
    };
    const n = orderOfLine(d.line);
    const list = itemsBy.get(n) ?? [];
    if (list.length < MAX_ITEMS_PER_ORDER) list.push(item);
    itemsBy.set(n, list);
  });

  const markerLinesOf = (n: string) =>
    a.occurrences.filter((o) => o.number === n).map((o) => o.line);
  const linkLines = new Set(doc.links.map((l) => l.line));

  return a.numbers.map((number) => {
    const fieldRanges = ranges.get(number) ?? [[0, a.cut]];
    // The 2025 templates put the estimate and ship-to just above "Order #": with several
    // orders, those lines are looked at when the order's own lines do not have them.
    const lead: Range[] =
      a.numbers.length === 1
        ? []
        : markerLinesOf(number).map((l): Range => [Math.max(0, l - 3), l]);
    const { trackingnumber, carrier } = findTracking(doc.lines, fieldRanges);
    const placed = findPlacedOn(doc.lines, fieldRanges);
    const markers = markerLinesOf(number);
    let items = itemsBy.get(number) ?? [];
    if (items.length === 0 && a.numbers.length === 1) {
      const s = subjectItem(ctx.subject);
      if (s) items = [s];
    }
    const order: MailOrder = {
      amazonordernumber: number,
      items,
      shiptoaddress:
        findShipTo(doc.lines, fieldRanges, markers, linkLines) ??
        findShipTo(doc.lines, lead, markers, linkLines),
      dateordered: ctx.kind === "ordered" ? (ctx.date ? ctx.date.toISOString() : placed) : placed,
      expecteddeliverydatetext:
        findEstimate(doc.lines, fieldRanges) ?? findEstimate(doc.lines, lead),
      trackingnumber,
      carrier,
      datedelivered:
        ctx.kind === "delivered"
          ? (findDeliveredOn(doc.lines, fieldRanges, ctx.date) ?? ctx.date?.toISOString() ?? null)
          : null,
      total: findTotal(doc.lines, fieldRanges),
    };
    if (ctx.kind === "canceled" && ctx.cancelScope) order.cancelscope = ctx.cancelScope;
    return order;
  });
}

/** The Amazon domain most links point to (for a message whose sender does not say). */
export function dominantLinkDomain(doc: Doc): AmazonDomain | null {
  const counts = new Map<AmazonDomain, number>();
  for (const l of doc.links) {
    const d = l.url ? amazonDomainOf(l.url.hostname) : null;
    if (d) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best: AmazonDomain | null = null;
  let n = 0;
  for (const [d, c] of counts) {
    if (c > n) {
      best = d;
      n = c;
    }
  }
  return best;
}
