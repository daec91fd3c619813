/**
 * Stage 4 of the Amazon mail reader: the orders a mail of a known kind is about. The document's
 * lines are split between its order numbers (structure.ts), and per order its items are read
 * (items.ts: product links; text-items.ts: items written as lines; the subject's item last) and
 * its fields (fields.ts: total, ship-to, estimate, tracking, dates).
 */
import type { Doc } from "./doc.ts";
import {
  findDeliveredOn,
  findEstimate,
  findPlacedOn,
  findShipTo,
  findTotal,
  findTracking,
  type Range,
} from "./fields.ts";
import { bestName, itemDetails, itemDrafts, productUrl, subjectItem } from "./items.ts";
import type { AmazonDomain } from "./senders.ts";
import type { Analysis } from "./structure.ts";
import { textItems, wholeName } from "./text-items.ts";
import type { MailItem, MailKind, MailOrder, Marketplace } from "./types.ts";

const MAX_ITEMS_PER_ORDER = 100;

export type ExtractContext = {
  subject: string;
  date: Date | null;
  kind: MailKind;
  /** The Amazon domain product URLs are built on when a link does not say. */
  domain: AmazonDomain | null;
  cancelScope: "order" | "items" | null;
  market: Marketplace;
  /** The lines of the mail's text part when the document was made from its HTML (else []). */
  textPartLines: () => string[];
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

export function extractOrders(
  doc: Doc,
  a: Analysis,
  ctx: ExtractContext,
): { orders: MailOrder[]; unreadLabels: Set<string> } {
  const unreadLabels = new Set<string>();
  if (a.numbers.length === 0) return { orders: [], unreadLabels };
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
    const { price, quantity } = itemDetails(doc, d, spanEnd, ctx.market);
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

  const orders = a.numbers.map((number) => {
    const fieldRanges = ranges.get(number) ?? [[0, a.cut]];
    // The 2025 templates put the estimate and ship-to just above "Order #": with several
    // orders, those lines are looked at when the order's own lines do not have them.
    const lead: Range[] =
      a.numbers.length === 1
        ? []
        : markerLinesOf(number).map((l): Range => [Math.max(0, l - 3), l]);
    const { trackingnumber, carrier } = findTracking(doc.lines, fieldRanges);
    // With several orders, the lines just above an order's number are its own (the 2025
    // layout's estimate and ship-to); the lines after it may hold the next order's estimate.
    const first = findEstimate(
      doc.lines,
      lead.length > 0 ? lead : fieldRanges,
      ctx.market,
      ctx.date,
    );
    const second = first.text
      ? first
      : findEstimate(doc.lines, lead.length > 0 ? fieldRanges : [], ctx.market, ctx.date);
    const estimate = second.text ? second : first;
    if (!estimate.text && (first.unreadLabel || second.unreadLabel)) unreadLabels.add(number);
    const placed = findPlacedOn(doc.lines, fieldRanges);
    const markers = markerLinesOf(number);
    let items = itemsBy.get(number) ?? [];
    if (items.length === 0) {
      items = fieldRanges
        .flatMap(([x, y]) => textItems(doc.lines, x, y, ctx.market, doc.source === "text"))
        .slice(0, MAX_ITEMS_PER_ORDER);
    }
    if (a.numbers.length === 1) {
      const s = subjectItem(ctx.subject);
      if (s && items.length === 0) items = [s];
      // `Zugestellt: 3 „Steckdosenleiste…“`: the subject's quantity for the one item it names.
      const only = items[0];
      if (s && only && items.length === 1 && only.quantity === 1 && s.quantity > 1) {
        if (sameStart(only.productname, s.productname)) items = [{ ...only, quantity: s.quantity }];
      }
    }
    items = items.map((it) => {
      const whole =
        wholeName(it.productname, doc.lines) ?? wholeName(it.productname, ctx.textPartLines());
      return whole ? { ...it, productname: whole } : it;
    });
    const order: MailOrder = {
      amazonordernumber: number,
      items,
      shiptoaddress:
        findShipTo(doc.lines, fieldRanges, markers, linkLines) ??
        findShipTo(doc.lines, lead, markers, linkLines),
      dateordered: ctx.kind === "ordered" ? (ctx.date ? ctx.date.toISOString() : placed) : placed,
      expecteddeliverydatetext: estimate.text,
      expecteddeliverydate: estimate.day,
      trackingnumber,
      carrier,
      datedelivered:
        ctx.kind === "delivered"
          ? (findDeliveredOn(doc.lines, fieldRanges, ctx.date) ?? ctx.date?.toISOString() ?? null)
          : null,
      total: findTotal(doc.lines, fieldRanges, ctx.market),
    };
    if (ctx.kind === "canceled" && ctx.cancelScope) order.cancelscope = ctx.cancelScope;
    return order;
  });
  return { orders, unreadLabels };
}

/** Two names of one product: one starts with the other cut at "…". */
function sameStart(a: string, b: string): boolean {
  const cut = (x: string) =>
    x
      .replace(/(?:\.\.\.|…)$/, "")
      .trim()
      .toLowerCase();
  const x = cut(a);
  const y = cut(b);
  return x.length >= 4 && y.length >= 4 && (x.startsWith(y) || y.startsWith(x));
}
