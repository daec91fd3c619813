/**
 * The Amazon mail reader's single entry point: a MailMessage in, what it says about orders out.
 *
 * A pipeline; each stage is one file and reads only what the stages before it made:
 *
 *   message ──doc.ts──▶ document ──structure.ts──▶ order numbers, section end, link domain
 *           ──classify.ts──▶ kind ──orders.ts──▶ orders ──items.ts, text-items.ts, fields.ts──▶
 *           items and fields                                          (MailFacts, types.ts)
 *
 * 1. doc.ts: the HTML part (or the text part) as capped lines, links and aria amounts.
 * 2. structure.ts: the order numbers the document names and where the order section ends.
 * 3. classify.ts: the kind, from the subject's and the body's phrases (phrases.ts, one block per
 *    language) and, where no phrase decides, the sender (senders.ts `senderRole`) and structure.
 * 4. orders.ts: per order its lines, items (items.ts from product links, text-items.ts from
 *    lines) and fields (fields.ts: total, ship-to, estimate, tracking, dates).
 * Leaves any stage may use: senders.ts (Amazon's domains and order senders), money.ts (amounts,
 * @internationalized/number), dates.ts (delivery days, chrono-node), phrases.ts.
 * Then, here: when the HTML part lacks what a text part shows (items, a total), the text part's
 * orders fill the gaps; and `unread` says what the mail shows but could not be read.
 *
 * Pure and total: no I/O, never throws (a message it cannot make sense of is "other" with no
 * orders), bounded work on hostile input (caps in doc.ts, structure.ts and orders.ts; every
 * pattern runs on one capped line). It does not decide whether to trust the message: the
 * pipeline checks the sender (isAmazonSender), the receiving server's Authentication-Results and
 * forwards (`forwarded`) before acting on the facts.
 *
 * Kinds other than "other" carry one MailOrder per order number the message names; "other"
 * carries none, even when an order number is printed (refunds, one-time passwords), and says
 * "kind" in `unread` when an order sender's mail with an order number had no kind it could tell.
 */
import { classify, looksForwarded, normaliseSubject } from "./classify.ts";
import { buildDoc, type Doc, docFromText, isTruncated } from "./doc.ts";
import { hasProductLinks } from "./items.ts";
import { type ExtractContext, extractOrders } from "./orders.ts";
import { amazonDomainOf, domainOfAddress, marketplaceOfDomain, senderRole } from "./senders.ts";
import { analyse, dominantLinkDomain } from "./structure.ts";
import type {
  MailFacts,
  MailItem,
  MailKind,
  MailMessage,
  MailOrder,
  UnreadField,
} from "./types.ts";

export { READER_VERSION } from "./reader-version.ts";

function read(msg: MailMessage): MailFacts {
  // 1. message → document
  const doc = buildDoc(msg);
  let textDoc: Doc | undefined;
  const textPart = (): Doc | null => {
    if (doc.source !== "html" || !msg.text) return null;
    textDoc ??= docFromText(msg.text);
    return textDoc;
  };
  const subject = msg.subject ?? "";
  const senderDomain = msg.from ? domainOfAddress(msg.from.address) : null;
  const domain = (senderDomain && amazonDomainOf(senderDomain)) || dominantLinkDomain(doc);
  const marketplace = marketplaceOfDomain(domain);
  const forwarded = looksForwarded(subject, doc.lines);

  // 2. document → kind
  const analysis = analyse(doc, subject);
  const role = senderRole(msg.from?.address);
  const c = classify(subject, doc.lines.slice(0, analysis.cut), analysis.numbers.length > 0, role);
  if (c.kind === "other") {
    const facts: MailFacts = {
      kind: "other",
      marketplace,
      orders: [],
      reason: c.reason,
      forwarded,
    };
    if (c.undecided) facts.unread = ["kind"];
    return facts;
  }

  // 3. kind → orders, 4. their items and fields
  const ctx: ExtractContext = {
    subject: normaliseSubject(subject),
    date: msg.date,
    kind: c.kind,
    domain,
    cancelScope: c.cancelScope,
    market: marketplace,
    textPartLines: () => textPart()?.lines ?? [],
  };
  const { orders: htmlOrders, unreadLabels } = extractOrders(doc, analysis, ctx);
  let orders = htmlOrders;
  // An HTML part that lacks what the text part shows (a short HTML beside the whole text part,
  // items as lines only in the text): the text part's orders fill the gaps.
  const text = orders.some((o) => lacksSomething(c.kind, o)) ? textPart() : null;
  if (text) {
    const fromText = extractOrders(text, analyse(text, subject), {
      ...ctx,
      textPartLines: () => [],
    });
    orders = orders.map((o) =>
      fill(
        o,
        fromText.orders.find((t) => t.amazonordernumber === o.amazonordernumber),
      ),
    );
    if (orders.length === 0) orders = fromText.orders;
  }
  const reason = orders.length === 0 ? `${c.reason}; no order number found` : c.reason;
  const facts: MailFacts = { kind: c.kind, marketplace, orders, reason, forwarded };
  const unread = unreadFields(c.kind, orders, doc, analysis.cut, ctx.subject, unreadLabels);
  if (unread.length > 0) facts.unread = unread;
  return facts;
}

const itemScore = (items: MailItem[]): number =>
  items.reduce(
    (n, i) =>
      n + 1 + (i.price !== null ? 1 : 0) + (i.asin ? 1 : 0) + (isTruncated(i.productname) ? 0 : 1),
    0,
  );

/**
 * An order the HTML part read so little of that the text part is worth reading too: no item but
 * the subject's (no price, no ASIN), or a confirmation with no total. A missing estimate alone
 * is not reason enough (most shipped mail has one in the HTML when it has one at all).
 */
function lacksSomething(kind: MailKind, o: MailOrder): boolean {
  if (kind === "ordered" && o.total === null) return true;
  return o.items.every((i) => i.price === null && i.asin === null);
}

/** `o` with what it lacks taken from the same order read from the text part. */
function fill(o: MailOrder, t: MailOrder | undefined): MailOrder {
  if (!t) return o;
  const out = { ...o };
  if (itemScore(t.items) > itemScore(o.items)) out.items = t.items;
  out.total ??= t.total;
  if (out.expecteddeliverydatetext === null && t.expecteddeliverydatetext !== null) {
    out.expecteddeliverydatetext = t.expecteddeliverydatetext;
    out.expecteddeliverydate = t.expecteddeliverydate ?? null;
  }
  out.shiptoaddress ??= t.shiptoaddress;
  if (out.trackingnumber === null && t.trackingnumber !== null) {
    out.trackingnumber = t.trackingnumber;
    out.carrier = t.carrier;
  }
  return out;
}

/** "2 items", "2 Artikel", "1 producto", "and 3 more items", "und 1 weiterer Artikel"… */
const DECLARED_ITEMS =
  /(?:^|[\s:|：])(\d{1,3})\s*(?:items?|artikel|articoli|articolo|artículos?|productos?|produits?|articles?|点)(?![\p{L}])|(?:and|und|y|et|e)\s+(\d{1,3})\s+(?:more|weitere[rn]?|productos? más|autres?|altri)/iu;

/**
 * What the mail shows but the reader could not read (MailFacts.unread): a confirmation whose
 * total is unknown and whose items do not all carry a price (the Vine rule cannot be decided);
 * no item read although the order section links to products or the subject counts items; an
 * estimate label whose date was not read (mail about a parcel still on its way).
 */
function unreadFields(
  kind: MailKind,
  orders: MailOrder[],
  doc: Doc,
  cut: number,
  subject: string,
  unreadLabels: Set<string>,
): UnreadField[] {
  const out: UnreadField[] = [];
  if (
    kind === "ordered" &&
    orders.some(
      (o) => o.total === null && !(o.items.length > 0 && o.items.every((i) => i.price !== null)),
    )
  ) {
    out.push("total");
  }
  if (
    orders.length > 0 &&
    orders.every((o) => o.items.length === 0) &&
    (hasProductLinks(doc, cut) || DECLARED_ITEMS.test(subject.slice(0, 500)))
  ) {
    out.push("items");
  }
  const onItsWay = kind !== "delivered" && kind !== "canceled";
  if (
    onItsWay &&
    orders.some((o) => o.expecteddeliverydatetext === null && unreadLabels.has(o.amazonordernumber))
  ) {
    out.push("delivery-date");
  }
  return out;
}

export function readAmazonMail(msg: MailMessage): MailFacts {
  try {
    return read(msg);
  } catch (e) {
    return {
      kind: "other",
      marketplace: "unknown",
      orders: [],
      reason: `unreadable: ${e instanceof Error ? e.message.slice(0, 200) : "error"}`,
    };
  }
}
