/**
 * What a message is, before anything is written: the sender, the spoof check and the reading.
 *
 * - Sender: the From address must pass isAmazonSender (read both by the parser and from the raw
 *   header, one From header only), else "not-amazon". Forwarded mail (From not
 *   Amazon, subject starting Fwd:/Fw:/WG:/I:, body quoting an Amazon address) is "forwarded":
 *   never imported, because the forwarder wrote every byte of it and no Amazon signature covers
 *   it. A non-Amazon sender with any other subject is rejected from its headers alone, without
 *   parsing the body (most of a Takeout mbox is not Amazon's mail).
 * - Spoofing: see src/mail/auth-check.ts; a failure is skipped "spoofed" and logged as a warning.
 *   Missing Authentication-Results (a .eml or .mbox exported elsewhere, a test Dovecot, a server
 *   that does not add the header) is accepted, logged and counted as unverified in the result and
 *   the scan: such a server would equally keep a forged header the sender wrote, so refusing would
 *   protect nothing, and Gmail always adds the header, so real Gmail mail never takes this path.
 * - Bad mail never throws: unparseable or unreadable → skipped "unreadable".
 */
import type { Logger } from "../../log.ts";
import type {
  MailFacts,
  MailKind,
  MailMessage,
  Marketplace,
  UnreadField,
} from "../../mail/amazon/types.ts";
import { checkAuthentication } from "../../mail/auth-check.ts";
import {
  addressOf,
  domainOf,
  FORWARD_SUBJECT,
  type HeaderLine,
  quotesAmazon,
} from "../../mail/headers.ts";
import type { LedgerReason } from "./apply-facts.ts";

/** What deciding needs: the parser, the reader and the sender rule (injected by the service). */
export type DecideDeps = {
  log: Logger;
  /** Raw message → MailMessage (mailparser). May throw on garbage. */
  parseMail: (raw: Uint8Array) => Promise<MailMessage> | MailMessage;
  /** The Amazon reader: pure, never touches the database. */
  readAmazonMail: (msg: MailMessage) => MailFacts;
  isAmazonSender: (address: string) => boolean;
};

/** What the message is: skipped for a reason, or facts to apply. */
export type Decision =
  | {
      type: "skip";
      reason: LedgerReason;
      kind?: MailKind;
      marketplace?: Marketplace;
      unread?: readonly UnreadField[];
      mailDate?: Date | null;
    }
  | { type: "apply"; facts: MailFacts; mailDate: Date | null };

/** Sender, spoof check and reading: what the message is, without touching the database. */
export async function decide(
  deps: DecideDeps,
  bytes: Uint8Array,
  headers: HeaderLine[],
  ctx: { userId: number; key: string; auth?: "pass" | "absent" },
): Promise<Decision> {
  const { log } = deps;
  const headerFrom = addressOf(headers.find((h) => h.name === "from")?.value);
  const subject = headers.find((h) => h.name === "subject")?.value ?? "";
  // Fast path: plainly not Amazon's and not a forward: no need to parse the body.
  if (headerFrom && !deps.isAmazonSender(headerFrom) && !FORWARD_SUBJECT.test(subject)) {
    return { type: "skip", reason: "not-amazon" };
  }
  let msg: MailMessage;
  try {
    msg = await deps.parseMail(bytes);
  } catch (err) {
    log.info({ userId: ctx.userId, messageKey: ctx.key, err }, "mail: unparseable message");
    return { type: "skip", reason: "unreadable" };
  }
  const sender = msg.from?.address?.toLowerCase() ?? headerFrom;
  // Both readings of From must be Amazon's (the parser takes the first address, the header scan
  // the last), and there must be one From header: a message built to be read two ways is not.
  const oneFrom = headers.filter((h) => h.name === "from").length <= 1;
  const amazon =
    sender !== null &&
    deps.isAmazonSender(sender) &&
    (headerFrom === null || deps.isAmazonSender(headerFrom)) &&
    oneFrom;
  if (!sender || !amazon) {
    if (FORWARD_SUBJECT.test(msg.subject ?? subject) && quotesAmazon(msg, deps.isAmazonSender)) {
      log.info(
        { userId: ctx.userId, messageKey: ctx.key, from: sender },
        "mail: forwarded Amazon mail ignored (a forward is not authenticated by Amazon)",
      );
      return { type: "skip", reason: "forwarded" };
    }
    return { type: "skip", reason: "not-amazon" };
  }
  const auth = checkAuthentication(headers, domainOf(sender));
  if (auth.verdict === "spoofed") {
    log.warn(
      { userId: ctx.userId, messageKey: ctx.key, from: sender, detail: auth.detail },
      "mail: message claiming to be from Amazon failed authentication; ignored",
    );
    return { type: "skip", reason: "spoofed" };
  }
  ctx.auth = auth.verdict;
  if (auth.verdict === "absent") {
    log.info(
      { userId: ctx.userId, messageKey: ctx.key, from: sender },
      "mail: no Authentication-Results header; accepted unverified",
    );
  }
  let facts: MailFacts;
  try {
    facts = deps.readAmazonMail(msg);
  } catch (err) {
    log.warn({ userId: ctx.userId, messageKey: ctx.key, err }, "mail: the reader failed");
    return { type: "skip", reason: "unreadable" };
  }
  if (facts.kind === "other") {
    // Order mail by its sender and structure whose kind the reader could not decide: kept to
    // be read again; any other "other" is plainly not about an order.
    const unknownKind = facts.unread?.includes("kind") === true;
    return {
      type: "skip",
      reason: unknownKind ? "not-understood" : "not-an-order-mail",
      kind: "other",
      marketplace: facts.marketplace,
      ...(unknownKind ? { unread: facts.unread, mailDate: msg.date } : {}),
    };
  }
  if (facts.forwarded) {
    // Amazon's own address on a message that reads like a forward: Amazon never forwards, so
    // this is not one of its order mails whatever it quotes.
    log.info({ userId: ctx.userId, messageKey: ctx.key }, "mail: forwarded-looking mail ignored");
    return { type: "skip", reason: "forwarded", kind: facts.kind };
  }
  return { type: "apply", facts, mailDate: msg.date };
}
