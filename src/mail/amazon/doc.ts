/**
 * Stage 1 of the Amazon mail reader: a MailMessage becomes a flat document (`buildDoc`).
 *
 * The HTML part (or the text part when there is no HTML) becomes lines of visible text (block
 * elements and table cells end a line; entities decoded, invisible characters dropped, white
 * space collapsed), the links with their position, title, text and images, and the price amounts
 * Amazon's 2025 templates put in aria-labels. HTML is read with htmlparser2's streaming parser
 * (its stock tokenizer: linear time, no DOM, no recursion), capped at MAX_HTML_CHARS; comments,
 * <script>, <style> and <title> are skipped, which also drops the Outlook-only copies inside
 * conditional comments. Every later step reads lines capped at MAX_LINE_CHARS.
 */
import { Parser, type ParserOptions } from "htmlparser2";
import { amazonDomainOf } from "./senders.ts";
import type { MailMessage } from "./types.ts";

export const MAX_HTML_CHARS = 2 * 1024 * 1024;
export const MAX_TEXT_CHARS = 1024 * 1024;
export const MAX_LINES = 20_000;
export const MAX_LINE_CHARS = 2_000;
export const MAX_LINKS = 5_000;
export const MAX_NAME_CHARS = 500;
/** Real mail nests tables a few dozen deep and has a few thousand tags; past these, stop reading. */
export const MAX_DEPTH = 1_000;
export const MAX_TAGS = 100_000;
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
export const capCleanName = (c0: string): string => {
  const c = c0.trim().replace(/…/g, "...");
  return c.length > MAX_NAME_CHARS ? c.slice(0, MAX_NAME_CHARS).trimEnd() : c;
};

export const capName = (s: string): string => capCleanName(clean(s));

export const isTruncated = (s: string): boolean => /(?:\.\.\.|…)$/.test(s);

/** Quotes around product names in subjects: straight, typographic, German, French, Japanese. */
export const QUOTE_OPEN = /["“‘„«「『]/;
export function lastQuoteClose(s: string): number {
  return Math.max(...['"', "”", "“", "’", "»", "」", "』"].map((q) => s.lastIndexOf(q)));
}

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
