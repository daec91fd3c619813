/**
 * The Amazon mail reader's single entry point: a MailMessage in, what it says about orders out.
 *
 * Pure and total: no I/O, never throws (a message it cannot make sense of is "other" with no
 * orders), bounded work on hostile input (see extract.ts). It does not decide whether to trust
 * the message: the pipeline checks the sender (isAmazonSender), the receiving server's
 * Authentication-Results and forwards (`forwarded`) before acting on the facts.
 *
 * Kinds other than "other" carry one MailOrder per order number the message names; "other"
 * carries none, even when an order number is printed (Hub pickups, refunds, one-time passwords).
 */
import { classify, looksForwarded, normaliseSubject } from "./classify.ts";
import { buildDoc } from "./doc.ts";
import { analyse, dominantLinkDomain, extractOrders } from "./extract.ts";
import { amazonDomainOf, domainOfAddress, marketplaceOfDomain, senderRole } from "./senders.ts";
import type { MailFacts, MailMessage } from "./types.ts";

/**
 * The reader's version: raise it whenever the reader reads more or better, so that the pipeline
 * reads again the messages it recorded as not understood or read incompletely (issue 21 item 6).
 */
export const READER_VERSION = 1;

function read(msg: MailMessage): MailFacts {
  const doc = buildDoc(msg);
  const subject = msg.subject ?? "";
  const senderDomain = msg.from ? domainOfAddress(msg.from.address) : null;
  const domain = (senderDomain && amazonDomainOf(senderDomain)) || dominantLinkDomain(doc);
  const marketplace = marketplaceOfDomain(domain);
  const forwarded = looksForwarded(subject, doc.lines);

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
  const orders = extractOrders(doc, analysis, {
    subject: normaliseSubject(subject),
    date: msg.date,
    kind: c.kind,
    domain,
    cancelScope: c.cancelScope,
    market: marketplace,
  });
  const reason = orders.length === 0 ? `${c.reason}; no order number found` : c.reason;
  return { kind: c.kind, marketplace, orders, reason, forwarded };
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
