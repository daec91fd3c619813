/**
 * Stage 2 of the Amazon mail reader: the structure of the flat document (doc.ts) that every later
 * stage reads — the order numbers it names (written with an order label, in Amazon links'
 * orderId parameters, or in the subject), the lines they stand on, where the order section ends
 * (the first recommendation or footer heading after the first order number), and the Amazon
 * domain most of its links point to. classify.ts (stage 3) asks whether an order is named;
 * orders.ts (stage 4) splits the lines between the orders.
 *
 * Every pattern runs on one capped line at a time and has no nested unbounded quantifier.
 */
import { clean, type Doc, type DocLink } from "./doc.ts";
import { joinedList } from "./phrases.ts";
import { type AmazonDomain, amazonDomainOf } from "./senders.ts";

/** Orders one message can be about, and order-number occurrences looked at. */
export const MAX_ORDERS = 50;
const MAX_OCCURRENCES = 1_000;

// ---------------------------------------------------------------------------------------------
// Order numbers

/** Amazon order numbers: 3 digits (or D + 2 for digital orders), 7, 7. */
const ORDER_NUMBER = /(?<![\w-])([D\d]\d{2}-\d{7}-\d{7})(?![\w-])/g;
const ORDER_LABEL =
  /(?:order|ordine|bestell\w*|commande|pedido|bestelling|zamówienie|注文番号|#|n[.°º]\s?|nr\.?)[\s:：#.°º]*$/i;

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

/** Recommendation and footer headings (phrases.ts `sectionEnd`), at the start of a line. */
const CUT_HEADING = new RegExp(`^(?:${joinedList("sectionEnd")})`, "iu");

/** Index of the first recommendation/footer heading at or after `from`; lines.length if none. */
export function findCut(lines: string[], from: number): number {
  for (let i = Math.max(0, from); i < lines.length; i++) {
    const l = lines[i] ?? "";
    if (l.length > 200) continue;
    if (CUT_HEADING.test(l)) return i;
  }
  return lines.length;
}

// ---------------------------------------------------------------------------------------------
// The structure

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
