/**
 * Stage 4 of the Amazon mail reader (with text-items.ts and fields.ts): the items of an Amazon
 * message from its product links of the order section (ASINs from /dp/,
 * /gp/product/, ?asin=; Amazon's click-tracking undone by doc.ts), merged into one item per
 * product with its best name, image, unit price and quantity, or the item a subject names.
 *
 * Items come only from the order section: the document is cut at the first recommendation or
 * footer heading after the first order number (structure.ts `findCut`), and a product link whose
 * Amazon ref tag or enclosing element is a recommendation widget's (pd_…, rtpb, qpr, sr_N,
 * p13n…) is never an item, wherever it stands.
 */
import {
  capCleanName,
  capName,
  clean,
  type Doc,
  type DocLink,
  isTruncated,
  lastQuoteClose,
  MAX_NAME_CHARS,
  QUOTE_OPEN,
} from "./doc.ts";
import { findMoney, readNumber } from "./money.ts";
import { type AmazonDomain, amazonDomainOf } from "./senders.ts";
import { QUANTITY } from "./text-items.ts";
import type { MailItem, Marketplace } from "./types.ts";

// ---------------------------------------------------------------------------------------------
// URLs, ASINs

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
// Items

export type ItemDraft = {
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
export function itemDrafts(
  doc: Doc,
  cut: number,
  fallbackDomain: AmazonDomain | null,
): ItemDraft[] {
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
      if (prev && prev.length <= MAX_NAME_CHARS && !findMoney(prev) && !/:$/.test(prev)) {
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
export function bestName(names: string[]): string {
  const full = names.filter((n) => !isTruncated(n));
  const pool = full.length > 0 ? full : names;
  let best = "";
  for (const n of pool) if (n.length > best.length) best = n;
  return best;
}

const NOT_ITEM_PRICE =
  /total|subtotal|totale|summe|gesamt|postage|shipping|delivery|vat|iva|tax|paid|payment|refund|saving|last price|you saved|promotion|discount|coupon|estimated|%/i;

export function itemDetails(
  doc: Doc,
  draft: ItemDraft,
  spanEnd: number,
  market: Marketplace = "unknown",
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
  if (amount) price = readNumber(amount.value, "US");
  if (!price) {
    for (let i = draft.line; i < end && !price; i++) {
      const line = doc.lines[i] ?? "";
      if (NOT_ITEM_PRICE.test(line)) continue;
      price = findMoney(line, market)?.value ?? null;
    }
  }
  return { price, quantity };
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
  // `2 "name"`, `2 x "name"`, `2 Artikel: "name"`.
  const q =
    /(?:^|[\s:：])(\d{1,3})\s*(?:[x×]|artikel|articoli|artículos|articles?|items?|点)?\s*:?\s*$/i.exec(
      s.slice(Math.max(0, open - 16), open).trim(),
    );
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

/** Whether the order section links to a product (an ASIN, not a recommendation). */
export function hasProductLinks(doc: Doc, cut: number): boolean {
  for (const l of doc.links) {
    if (l.line >= cut) break;
    if (!isRecommendationLink(l) && asinOf(l.url)) return true;
  }
  return false;
}
