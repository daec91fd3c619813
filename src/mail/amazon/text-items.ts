/**
 * Stage 4 of the Amazon mail reader (with items.ts and fields.ts): items written as lines rather
 * than as product links: the text parts of real
 * mail, read when an order's lines hold no product link the link reader (items.ts) could use.
 * Layouts, each from the real samples in test/fixtures/mail/real/:
 * - `* name` / `数量: 1` / `1,010 JPY` (amazon.co.jp 2025) and `* name` / `Menge: 2` / `6.45 EUR`
 *   (amazon.de 2025 text part);
 * - `[whole name]` / `name cut at…` / `Menge: 2` / `2499€` (amazon.de 2025 text part of the HTML
 *   layout: the picture's alt in brackets; the price's cents were superscript, so "2499€" is
 *   24,99 €, read so only in this layout, where the line is digits and the symbol alone);
 * - `1 "name"` / `単行本; ￥ 1,600` (amazon.co.jp 2011: quantity, quoted name, format; price);
 * - `name` / `￥ 382` and `name 4点` / `￥ 2,640` (amazon.co.jp 2013–2020 text mail: a line
 *   followed by an amount alone; only in text mail, where no markup says what a line is).
 * - `1 x name` / `Verkauft von: …` / `EUR 32,90` (amazon.de text mail, 2016).
 * Quantities: `数量: 2`, `Menge: 2`, `Qty: 2`…, `2 x name`, `name 4点`.
 * It reads lines and amounts (money.ts), nothing of an earlier stage but the document.
 */
import { capName, isTruncated } from "./doc.ts";
import { findMoney, isMoneyOnly } from "./money.ts";
import { joinedList } from "./phrases.ts";
import type { MailItem, Marketplace } from "./types.ts";

const MAX_TEXT_ITEMS = 100;
/** Lines looked at after an item's name for its quantity and price. */
const DETAIL_LINES = 6;

export const QUANTITY = new RegExp(
  `(?:${joinedList("quantity")})\\s*[:：]?\\s*(\\d{1,4})(?!\\d)`,
  "iu",
);
const BULLET = /^[*•·]\s+(.{2,})$/;
const BRACKETED = /^\[(.{8,})\]$/;
const QUOTED_WITH_QTY = /^(\d{1,3})\s+["“„「](.{2,})["”“」]$/;
const TIMES = /^(\d{1,3})\s?[x×]\s+(.{2,})$/i;
const POINTS = /\s(\d{1,3})\s?点$/;
/** Lines that are never a product's name. */
const NOT_A_NAME =
  /[:：]$|^(?:total|totale|summe|gesamt|subtotal|小計|合計|配送料|注文|order|bestell|ordine|pedido|commande|verkauf durch|verkauft von|venduto da|vendu par|vendido por|sold by|zustand|condition|condizione|estado|état|この注文|お支払|クレジット|ご請求|消費税|ポイント)/i;
const NOT_ITEM_PRICE =
  /total|subtotal|totale|summe|gesamt|endbetrag|betrag|小計|合計|送料|配送料|手数料|消費税|お支払|ご請求|postage|shipping|versand|spedizione|livraison|envío|vat|iva|tax|paid|payment|zahlung|%/i;
/** "2499€": whole and cents run together when the HTML's superscript cents become text. */
const RUN_TOGETHER_EUR = /^(\d{1,7})(\d{2})\s?€$/;

export type TextItemLayout =
  | "bullet"
  | "bracket"
  | "times"
  | "quoted"
  | "price-below"
  | "price-after";

function itemStart(
  lines: string[],
  i: number,
  textMail: boolean,
  market: Marketplace,
): {
  name: string;
  quantity: number;
  layout: TextItemLayout;
  price?: string;
  perLine?: boolean;
} | null {
  const l = lines[i] ?? "";
  if (l.length > 400) return null;
  let m = BULLET.exec(l);
  if (m?.[1]) return { ...nameAndQty(m[1]), layout: "bullet" };
  m = BRACKETED.exec(l);
  // Two words at least: the progress bar's "[Abgeschlossen]" is no product.
  if (m?.[1] && /\s/.test(m[1]) && !/^https?:/i.test(m[1]) && !/^amazon\./i.test(m[1])) {
    return { ...nameAndQty(m[1]), layout: "bracket" };
  }
  m = TIMES.exec(l);
  if (m?.[1] && m[2] && /\p{L}/u.test(m[2])) return { ...nameAndQty(l), layout: "times" };
  m = QUOTED_WITH_QTY.exec(l);
  if (m?.[1] && m[2]) return { name: capName(m[2]), quantity: Number(m[1]), layout: "quoted" };
  if (!textMail || NOT_A_NAME.test(l) || QUANTITY.test(l) || !/\p{L}/u.test(l) || l.length > 200) {
    return null;
  }
  const money = findMoney(l, market);
  if (!money) {
    const next = lines[i + 1] ?? "";
    if (isMoneyOnly(next, market) && l.length >= 3)
      return { ...nameAndQty(l), layout: "price-below" };
    return null;
  }
  // "name ￥ 1,470": a name, then the amount ending the line.
  const name = l.slice(0, money.index).trim();
  if (
    money.end >= l.length - 1 &&
    name.length >= 3 &&
    /\p{L}/u.test(name) &&
    !NOT_ITEM_PRICE.test(name)
  ) {
    return { ...nameAndQty(name), layout: "price-after", price: money.value };
  }
  return null;
}

/** The name and quantity of a line; `perLine` when the amount beside it is for all N ("4点"). */
function nameAndQty(raw: string): { name: string; quantity: number; perLine?: boolean } {
  const t = TIMES.exec(raw);
  if (t?.[1] && t[2]) return { name: capName(t[2]), quantity: Number(t[1]) };
  const p = POINTS.exec(raw);
  if (p?.[1])
    return { name: capName(raw.slice(0, p.index)), quantity: Number(p[1]), perLine: true };
  return { name: capName(raw), quantity: 1 };
}

/** The items written as lines in `lines[from, to)`. */
export function textItems(
  lines: string[],
  from: number,
  to: number,
  market: Marketplace,
  textMail: boolean,
): MailItem[] {
  const out: MailItem[] = [];
  const end = Math.min(to, lines.length);
  for (let i = Math.max(0, from); i < end && out.length < MAX_TEXT_ITEMS; i++) {
    const start = itemStart(lines, i, textMail, market);
    if (!start || start.name.length < 2) continue;
    let { name, quantity } = start;
    let price: string | null = start.price ?? null;
    let j = i + 1;
    for (; price === null && j < Math.min(end, i + 1 + DETAIL_LINES); j++) {
      const l = lines[j] ?? "";
      if (itemStart(lines, j, false, market)) break;
      // The bracketed whole name is followed by the same name cut at "...".
      if (start.layout === "bracket" && j === i + 1 && isTruncated(l)) continue;
      const q = QUANTITY.exec(l);
      if (q?.[1]) {
        const n = Number(q[1]);
        if (n >= 1 && n <= 9999) quantity = n;
        continue;
      }
      if (price === null && !NOT_ITEM_PRICE.test(l)) {
        const run = start.layout === "bracket" ? RUN_TOGETHER_EUR.exec(l.trim()) : null;
        if (run) price = `${Number(run[1])}.${run[2]}`;
        else price = findMoney(l, market)?.value ?? null;
        if (price !== null) {
          j++;
          break;
        }
      }
      if (NOT_A_NAME.test(l) && /^(?:total|totale|summe|gesamt|subtotal|小計|合計)/i.test(l)) break;
    }
    // amazon.co.jp's "name 4点" / "￥ 2,640": the amount is the line's, the unit price a quarter.
    if (start.perLine && price !== null && quantity > 1) {
      price = (Math.round((Number(price) / quantity) * 100) / 100).toFixed(2);
    }
    out.push({
      productname: name,
      asin: null,
      producturl: null,
      productimage: null,
      price,
      quantity,
    });
    i = j - 1;
  }
  return out;
}

/**
 * The whole name of an item a subject cut at "…": the first line of `lines` that starts with the
 * cut name and goes on (the text part of a mail whose subject and HTML only show the cut).
 */
export function wholeName(cut: string, lines: string[]): string | null {
  if (!isTruncated(cut)) return null;
  const stem = cut.replace(/(?:\.\.\.|…)$/, "").trim();
  if (stem.length < 8) return null;
  const lower = stem.toLowerCase();
  for (const raw of lines) {
    if (raw.length > 600) continue;
    const l = raw.replace(/^[*•·]\s+|^\[|\]$/g, "").trim();
    if (l.length > stem.length + 1 && l.toLowerCase().startsWith(lower) && !isTruncated(l)) {
      return capName(l);
    }
  }
  return null;
}
