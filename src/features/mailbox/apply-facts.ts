/**
 * MailFacts → order changes. Pure: it reads the user's existing orders through the context and
 * returns a plan (orders to create, orders to update, or why nothing happens); the ingest service
 * carries the plan out through the orders service, inside the message's transaction.
 *
 * Rules (the pipeline's, not the reader's):
 * - Order confirmation ("ordered"): one order per item line. In "vine" mode only an order whose
 *   total is 0.00 (Vine orders are free; with no total, every item priced 0.00) is imported; an
 *   order whose total is another amount is kept out ("not-vine"). An order whose total could not
 *   be read (null, and not every item priced 0.00) cannot be decided: it is neither imported nor
 *   taken for paid, and when nothing else of the message applies the message is "not-understood"
 *   (read again by a newer reader). In "all" mode every order, read total or not. An item that already exists
 *   (same order number, same item) is not created again; a hand-entered order (no order number)
 *   with the same ASIN is adopted instead: it gets the order number and the empty fields filled.
 *   The value is the item's price, except 0.00 (a Vine price, not the item's value: left empty).
 * - Later mail (shipped, out for delivery, delivered, canceled, delayed) updates the orders of its
 *   order number: the items it names (by ASIN, else by product-name similarity, else the only
 *   item of a one-item order), or every item of the order when it names none. No match →
 *   "no-matching-order". In "vine" mode such mail never creates orders (it cannot tell a Vine
 *   order). In "all" mode a shipped/out-for-delivery/delivered mail about an order number we do
 *   not know, that names its items, creates them (Shipped or Received): their confirmation was
 *   older than what we read.
 * - Never backwards: Ordered < Shipped < Received < Review Submitted < Review Approved/Rejected.
 *   shipped/out-for-delivery: Ordered → Shipped; on Ordered/Shipped orders they fill an empty
 *   tracking number (carrier as stated, else detected by the orders service) and set the newest
 *   expected-delivery text. delivered: Ordered/Shipped → Received with the delivery date; later
 *   stages only get an empty datedelivered filled. canceled: Ordered/Shipped → Canceled, for
 *   the items named (cancelscope "items"; none named → no match) or every item of the order
 *   (cancelscope "order", or no scope and no item named).
 *   delayed: the expected-delivery text of Ordered/Shipped orders. A Canceled order is never
 *   changed by mail.
 * - Values are checked with the API's own field rules; a value that fails (a bad URL, a price
 *   that is not an amount) is dropped, not the order.
 * - A message that names something the reader could not read (MailFacts.unread) and from which
 *   nothing applies is "not-understood", not "unreadable".
 * - Reading again a message applied before (`fill`: a newer reader, the message was read
 *   incompletely) only fills what is empty: no status change, no text replaced, so nothing the
 *   user typed or changed since is overwritten; it creates orders only when the first reading
 *   missed some (`fill.creates`: items or a total it could not read).
 */

import { cleanText } from "../../contract/clean-text.ts";
import type {
  CreateOrderBody,
  Order,
  OrderStatus,
  SkipReason,
  UpdateOrderBody,
} from "../../contract/index.ts";
import { MARKETPLACE_CURRENCY } from "../../contract/marketplaces.ts";
import type { orderFields } from "../../contract/orders.ts";
import type {
  MailFacts,
  MailItem,
  MailKind,
  MailOrder,
  Marketplace,
} from "../../mail/amazon/types.ts";
import { lazyModule } from "../../util/lazy-module.ts";

export type ImportMode = "vine" | "all";

/** Why a message changed nothing, as the ledger records it: a skip reason, or not understood. */
export type LedgerReason = SkipReason | "not-understood";

/** What a planned update does, for the scan's summary notification. */
export type Change = "shipped" | "delivered" | "canceled" | "delayed" | "details";

/** A create body with only the fields mail can fill (the others are left to their defaults). */
export type NewOrderBody = Pick<CreateOrderBody, "productname" | "asin"> & Partial<CreateOrderBody>;

export type Plan = {
  creates: { body: NewOrderBody; status: OrderStatus }[];
  updates: { order: Order; body: UpdateOrderBody; change: Change }[];
  /** Orders the mail is about that needed no change (e.g. a late Delivered). */
  unchanged: number;
  /** Why nothing at all happens; null when something is created, updated or unchanged. */
  skip: LedgerReason | null;
  /**
   * Orders of the message whose Vine rule could not be decided ("vine" mode, total unreadable):
   * left out. With anything else applied, the message is read incompletely ("total").
   */
  undecided: number;
  /**
   * True when the import mode kept something out: a paid order in "vine" mode, or a later mail
   * about orders we do not have that "all" mode would create. Such a message is read again once
   * the mode is "all" (the ledger remembers it).
   */
  modeLimited: boolean;
};

export type FactsContext = {
  mode: ImportMode;
  /** The user's orders with this Amazon order number. */
  byNumber: (orderNumber: string) => Order[];
  /** The user's hand-entered orders (no order number) with this ASIN. */
  unnumberedByAsin: (asin: string) => Order[];
  /** The message's Date header: the order date / delivery date when the mail states none. */
  mailDate: Date | null;
  /**
   * Set when the message was applied before and is read again by a newer reader: only empty
   * fields are filled; orders are created only when `creates` (the first reading missed some).
   */
  fill?: { creates: boolean };
};

const RANK: Record<OrderStatus, number> = {
  Ordered: 0,
  Shipped: 1,
  Received: 2,
  "Review Submitted": 3,
  "Review Approved": 4,
  "Review Rejected": 4,
  Canceled: -1,
};
const inTransit = (s: OrderStatus) => s === "Ordered" || s === "Shipped";

/** The API's field rules (zod), loaded with the first mail applied rather than at start. */
const orderSchemas = lazyModule(
  () => require("../../contract/orders.ts") as typeof import("../../contract/orders.ts"),
);

/* ------------------------------------------------------------------------------------------------
 * Matching
 * --------------------------------------------------------------------------------------------- */

export function normaliseName(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['\u2018\u2019\u201c\u201d"]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** 1 for the same name; 0.95 when one is a truncation of the other; else the tokens' Dice score. */
export function nameSimilarity(a: string, b: string): number {
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  if (short.length >= 12 && long.startsWith(short)) return 0.95;
  const ta = new Set(x.split(" "));
  const tb = new Set(y.split(" "));
  let inter = 0;
  for (const t of ta) if (tb.has(t)) inter++;
  return (2 * inter) / (ta.size + tb.size);
}

export const NAME_MATCH_THRESHOLD = 0.6;

const sameAsin = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.toUpperCase() === b.toUpperCase());

/** The existing order a mail item is about, or null. `taken` orders are not matched twice. */
export function matchItem(
  item: MailItem,
  candidates: readonly Order[],
  taken: ReadonlySet<number>,
  mailItemCount: number,
): Order | null {
  const free = candidates.filter((c) => !taken.has(c.orderid));
  if (item.asin) {
    const hit = free.find((c) => sameAsin(c.asin, item.asin));
    if (hit) return hit;
  }
  // A candidate with another ASIN is another product: names are compared only without a conflict.
  const eligible = free.filter((c) => !(item.asin && c.asin) || sameAsin(c.asin, item.asin));
  let best: Order | null = null;
  let bestScore = NAME_MATCH_THRESHOLD;
  for (const c of eligible) {
    const score = nameSimilarity(item.productname, c.productname);
    if (score >= bestScore) {
      best = c;
      bestScore = score;
    }
  }
  if (best) return best;
  if (candidates.length === 1 && mailItemCount === 1 && eligible.length === 1) {
    return eligible[0]!;
  }
  return null;
}

/* ------------------------------------------------------------------------------------------------
 * Values
 * --------------------------------------------------------------------------------------------- */

/** The value if the API's own rule for the field accepts it, else null. */
function field<K extends keyof typeof orderFields>(
  key: K,
  value: string | null | undefined,
  max: number,
): string | null {
  if (value == null) return null;
  // The same cleaning as API input (mail is hostile input too); after the cut, which may split a pair.
  const clipped = cleanText(value.trim().slice(0, max)).trim();
  if (clipped === "") return null;
  const r = orderSchemas().orderFields[key].safeParse(clipped);
  return r.success && typeof r.data === "string" ? r.data : null;
}

function iso(v: string | null | undefined): string | null {
  if (!v) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  const y = new Date(t).getUTCFullYear();
  return y >= 1900 && y <= 2999 ? new Date(t).toISOString() : null;
}

const mailDateIso = (d: Date | null) =>
  d && !Number.isNaN(d.getTime()) ? iso(d.toISOString()) : null;

/**
 * The Vine rule: a total of 0.00 in any currency is a Vine order, another total a paid one. With
 * no total read, every item priced 0.00 is a Vine order; anything else cannot be decided.
 */
export function vineVerdict(o: MailOrder): "vine" | "paid" | "unknown" {
  if (o.total !== null) return o.total === "0.00" ? "vine" : "paid";
  if (o.items.length > 0 && o.items.every((i) => i.price === "0.00")) return "vine";
  return "unknown";
}

function newOrderBody(
  item: MailItem,
  o: MailOrder,
  ctx: FactsContext,
  kind: MailKind,
  marketplace: Marketplace,
): { body: NewOrderBody; status: OrderStatus } | null {
  const productname = field("productname", item.productname.replace(/\s+/g, " "), 1000);
  if (!productname) return null;
  const price = item.price === "0.00" ? null : field("estimatedretailvalue", item.price, 32);
  const body: NewOrderBody = {
    productname,
    // The API requires an ASIN from people; mail sometimes has none: empty, to be filled in.
    asin: field("asin", item.asin?.toUpperCase(), 20) ?? "",
    producturl: field("producturl", item.producturl, 2000),
    productimage: field("productimage", item.productimage, 2000),
    estimatedretailvalue: price,
    shiptoaddress: field("shiptoaddress", o.shiptoaddress, 1000),
    dateordered:
      kind === "ordered" ? (iso(o.dateordered) ?? mailDateIso(ctx.mailDate)) : iso(o.dateordered),
    amazonordernumber: field("amazonordernumber", o.amazonordernumber, 64),
    expecteddeliverydatetext: field("expecteddeliverydatetext", o.expecteddeliverydatetext, 200),
  };
  // The mail's marketplace decides the currency; from an unknown one, the user's (the service's
  // default for an order without one).
  if (marketplace !== "unknown") body.currency = MARKETPLACE_CURRENCY[marketplace];
  let status: OrderStatus = "Ordered";
  if (kind === "shipped" || kind === "out-for-delivery") {
    status = "Shipped";
    body.status = status;
    const tn = field("trackingnumber", o.trackingnumber, 64);
    if (tn) {
      body.trackingnumber = tn;
      if (o.carrier) body.carrier = o.carrier;
    }
  } else if (kind === "delivered") {
    status = "Received";
    body.status = status;
    body.datedelivered = iso(o.datedelivered) ?? mailDateIso(ctx.mailDate);
    body.expecteddeliverydatetext = null;
  }
  return { body, status };
}

/** Empty fields of an existing order that an order confirmation can fill. */
function fillEmpty(order: Order, item: MailItem, o: MailOrder, ctx: FactsContext): UpdateOrderBody {
  const body: Record<string, unknown> = {};
  const fill = (key: keyof typeof orderFields & keyof Order, v: string | null) => {
    if (v !== null && (order[key] === null || order[key] === "")) body[key] = v;
  };
  fill("amazonordernumber", field("amazonordernumber", o.amazonordernumber, 64));
  fill("asin", field("asin", item.asin?.toUpperCase(), 20));
  fill("producturl", field("producturl", item.producturl, 2000));
  fill("productimage", field("productimage", item.productimage, 2000));
  fill("shiptoaddress", field("shiptoaddress", o.shiptoaddress, 1000));
  fill("dateordered", iso(o.dateordered) ?? mailDateIso(ctx.mailDate));
  if (inTransit(order.status)) {
    fill(
      "expecteddeliverydatetext",
      field("expecteddeliverydatetext", o.expecteddeliverydatetext, 200),
    );
  }
  return body as UpdateOrderBody;
}

/** The change a later mail makes to one matched order ({} when none). */
function laterChange(
  kind: MailKind,
  order: Order,
  o: MailOrder,
  ctx: FactsContext,
): { body: UpdateOrderBody; change: Change } {
  const body: Record<string, unknown> = {};
  let change: Change = "details";
  const text = field("expecteddeliverydatetext", o.expecteddeliverydatetext, 200);
  if (!order.amazonordernumber) {
    const n = field("amazonordernumber", o.amazonordernumber, 64);
    if (n) body.amazonordernumber = n; // an adopted hand-entered order
  }
  if (ctx.fill) {
    // Read again: what this mail says that the order lacks, nothing more.
    if (!inTransit(order.status) && kind !== "delivered") return { body: {}, change };
    const empty = (v: string | null) => v === null || v === "";
    if (kind === "shipped" || kind === "out-for-delivery" || kind === "delayed") {
      const tn = field("trackingnumber", o.trackingnumber, 64);
      if (kind !== "delayed" && tn && empty(order.trackingnumber)) {
        body.trackingnumber = tn;
        if (o.carrier) body.carrier = o.carrier;
      }
      if (text && empty(order.expecteddeliverydatetext)) body.expecteddeliverydatetext = text;
    } else if (kind === "delivered" && RANK[order.status] >= RANK.Received) {
      const when = iso(o.datedelivered) ?? mailDateIso(ctx.mailDate);
      if (when && !order.datedelivered) body.datedelivered = when;
    }
    return { body: body as UpdateOrderBody, change };
  }
  switch (kind) {
    case "shipped":
    case "out-for-delivery": {
      if (!inTransit(order.status)) break;
      if (order.status === "Ordered") {
        body.status = "Shipped";
        change = "shipped";
      }
      const tn = field("trackingnumber", o.trackingnumber, 64);
      if (tn && !order.trackingnumber) {
        body.trackingnumber = tn;
        if (o.carrier) body.carrier = o.carrier;
      }
      if (text && text !== order.expecteddeliverydatetext) body.expecteddeliverydatetext = text;
      break;
    }
    case "delivered": {
      const when = iso(o.datedelivered) ?? mailDateIso(ctx.mailDate);
      if (inTransit(order.status)) {
        body.status = "Received";
        change = "delivered";
        if (when) body.datedelivered = when;
      } else if (RANK[order.status] >= RANK.Received && !order.datedelivered && when) {
        body.datedelivered = when;
      }
      break;
    }
    case "canceled":
      if (inTransit(order.status)) {
        body.status = "Canceled";
        change = "canceled";
      }
      break;
    case "delayed":
      if (inTransit(order.status) && text && text !== order.expecteddeliverydatetext) {
        body.expecteddeliverydatetext = text;
        change = "delayed";
      }
      break;
    default:
      break;
  }
  return { body: body as UpdateOrderBody, change };
}

/* ------------------------------------------------------------------------------------------------
 * The plan
 * --------------------------------------------------------------------------------------------- */

export function planFacts(facts: MailFacts, ctx: FactsContext): Plan {
  const plan: Plan = {
    creates: [],
    updates: [],
    unchanged: 0,
    skip: null,
    undecided: 0,
    modeLimited: false,
  };
  const misread = (facts.unread?.length ?? 0) > 0;
  if (facts.kind === "other") {
    return {
      ...plan,
      skip: facts.unread?.includes("kind") ? "not-understood" : "not-an-order-mail",
    };
  }
  if (facts.orders.length === 0)
    return { ...plan, skip: misread ? "not-understood" : "unreadable" };
  const mayCreate = !ctx.fill || ctx.fill.creates;

  const taken = new Set<number>();
  let notVine = 0;
  let noMatch = 0;

  const update = (order: Order, body: UpdateOrderBody, change: Change) => {
    taken.add(order.orderid);
    if (Object.keys(body).length === 0) plan.unchanged++;
    else plan.updates.push({ order, body, change });
  };

  for (const o of facts.orders) {
    const existing = ctx.byNumber(o.amazonordernumber);

    if (facts.kind === "ordered") {
      const verdict = ctx.mode === "vine" ? vineVerdict(o) : "vine";
      if (verdict === "unknown") {
        plan.undecided++;
        continue;
      }
      if (verdict === "paid") {
        notVine++;
        plan.modeLimited = true;
        continue;
      }
      if (o.items.length === 0) continue; // an order mail that names no item: unreadable
      for (const item of o.items) {
        const same = matchItem(item, existing, taken, o.items.length);
        if (same) {
          update(same, fillEmpty(same, item, o, ctx), "details");
          continue;
        }
        const adopt = item.asin
          ? ctx
              .unnumberedByAsin(item.asin)
              .find((c) => !taken.has(c.orderid) && c.status !== "Canceled")
          : undefined;
        if (adopt) {
          update(adopt, fillEmpty(adopt, item, o, ctx), "details");
          continue;
        }
        const created = mayCreate && newOrderBody(item, o, ctx, facts.kind, facts.marketplace);
        if (created) plan.creates.push(created);
      }
      continue;
    }

    // Later mail: the orders it is about.
    let candidates = existing;
    if (candidates.length === 0) {
      candidates = o.items.flatMap((i) => (i.asin ? ctx.unnumberedByAsin(i.asin) : []));
      candidates = candidates.filter(
        (c, i) => candidates.findIndex((x) => x.orderid === c.orderid) === i,
      );
    }
    const targets: Order[] = [];
    // A cancellation says whether the whole order or only the listed items were canceled.
    const scope = facts.kind === "canceled" ? o.cancelscope : undefined;
    if (scope === "order" || (o.items.length === 0 && scope !== "items")) {
      targets.push(...candidates.filter((c) => !taken.has(c.orderid)));
    } else {
      for (const item of o.items) {
        const hit = matchItem(
          item,
          candidates,
          new Set([...taken, ...targets.map((t) => t.orderid)]),
          o.items.length,
        );
        if (hit) targets.push(hit);
      }
    }
    if (targets.length === 0) {
      const creatable =
        existing.length === 0 &&
        candidates.length === 0 &&
        o.items.length > 0 &&
        (facts.kind === "shipped" ||
          facts.kind === "out-for-delivery" ||
          facts.kind === "delivered");
      if (creatable && ctx.mode !== "all" && !ctx.fill) plan.modeLimited = true;
      if (creatable && ctx.mode === "all" && mayCreate) {
        for (const item of o.items) {
          const created = newOrderBody(item, o, ctx, facts.kind, facts.marketplace);
          if (created) plan.creates.push(created);
        }
      } else noMatch++;
      continue;
    }
    for (const t of targets) {
      const { body, change } = laterChange(facts.kind, t, o, ctx);
      update(t, body, change);
    }
  }

  if (plan.creates.length || plan.updates.length || plan.unchanged) return plan;
  // Nothing happened: the most telling reason (an unreadable order mail otherwise). An order the
  // Vine rule could not decide may be a Vine order: never taken for paid.
  if (plan.undecided) plan.skip = "not-understood";
  else if (notVine) plan.skip = "not-vine";
  else if (noMatch) plan.skip = "no-matching-order";
  else plan.skip = misread ? "not-understood" : "unreadable";
  return plan;
}
