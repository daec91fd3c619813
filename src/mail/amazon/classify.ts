/**
 * Stage 3 of the Amazon mail reader: what kind of Amazon message this is, from its subject, its
 * body (above the order section's end, structure.ts), its sender's role and whether it names an
 * order. The words of each language are in phrases.ts.
 *
 * Order of decisions:
 * 0. A parcel collected from a pickup point, naming its order: "delivered" (COLLECTED below).
 * 1. Messages that are about something else even when they name an order: one-time delivery
 *    passwords and sign-in codes, Hub/locker pickups, refunds and returns, review requests,
 *    Subscribe & Save notices → "other" (in the marketplaces' languages too: remboursement,
 *    Erstattung, reso, reembolso, 返金, 返品, "Évaluez votre achat", レビュー…). Quoted product
 *    names in the subject are left out of this test (a product called "Pick Up Sticks" does not make a shipment a pickup notice).
 * 2. A subject with the prefix of Amazon's current templates ("Ordered:", "Shipped:", "Out for
 *    delivery:", "Delivered:", "Delivery update:", "Canceled:", and their UK/IT/DE forms) decides.
 * 3. Otherwise the body decides (headline sentences such as "Your package has been delivered!",
 *    "DISPATCH CONFIRMATION", "Thanks for your order"), looked for only above the
 *    recommendations and the footer.
 * 4. Otherwise an older subject wording ("Your Amazon.com order #… has shipped").
 * 5. Otherwise, or when the body alone speaks and the message names no order: "other".
 *
 * The 2025 templates print a progress bar ("Ordered / Shipped / Out for delivery / Delivered")
 * in every message, so bare status words in the body never count: only sentences do.
 */
import { clean, lastQuoteClose, QUOTE_OPEN } from "./doc.ts";
import { joined, joinedList, KIND_ORDER, type OrderKind } from "./phrases.ts";
import type { SenderRole } from "./senders.ts";
import type { MailKind } from "./types.ts";

export type Classification = {
  kind: MailKind;
  reason: string;
  /**
   * An order mail by its sender and structure (an order sender, an order number) whose kind no
   * rule decided: "other", and the reader says "kind" is unread.
   */
  undecided?: boolean;
  /** For "canceled": the whole order, or only some items. */
  cancelScope: "order" | "items" | null;
};

type Rule = { kind: MailKind; re: RegExp; unless?: RegExp };

/** "We'll let you know once your item(s) have dispatched": a promise, not the news. */
const FUTURE_SHIPMENT =
  /\b(?:once|when|after|as soon as|we'll|we will|will)\b.{0,80}\b(?:ship|shipped|ships|dispatch|dispatched|dispatches)\b/i;

const FORWARD_PREFIX = /^\s*(?:fwd?|fw|re|aw|wg|tr|rv|r|i)\s*:\s*/i;

/** The subject without "Fwd:"/"Re:" prefixes and invisible padding. */
export function normaliseSubject(subject: string): string {
  let s = clean(subject.slice(0, 2000));
  for (let i = 0; i < 5 && FORWARD_PREFIX.test(s); i++) s = s.replace(FORWARD_PREFIX, "");
  return s;
}

/** The subject with its quoted product name taken out. */
export function withoutQuoted(s: string): string {
  const open = s.search(QUOTE_OPEN);
  if (open < 0) return s;
  const close = lastQuoteClose(s);
  if (close <= open) return s;
  return `${s.slice(0, open)} … ${s.slice(close + 1)}`;
}

/**
 * Pickup points and lockers. A parcel collected there ("was picked up",
 * "wurde abgeholt", "a été retiré") is "delivered" when the mail names its order. A notice that a
 * parcel is ready for collection stays "other", like the Hub Locker notices of the corpus: the
 * parcel is not yet in the reviewer's hands and the notice is about a pickup code (a person reads
 * "arrived"; the order moves on with the delivered or collected mail).
 */
const COLLECTED = new RegExp(joinedList("collected"), "iu");
const OTHER_SUBJECT = new RegExp(joinedList("otherSubject"), "iu");
const OTHER_BODY = new RegExp(joinedList("otherBody"), "iu");

/** Kinds in the order the subject's prefix is tried (the prefixes of different kinds never share a start). */
const PREFIX_ORDER: OrderKind[] = [
  "ordered",
  "shipped",
  "out-for-delivery",
  "delivered",
  "canceled",
  "delayed",
];

const STRONG_SUBJECT: Rule[] = PREFIX_ORDER.flatMap((kind): Rule[] => {
  const prefix = joined("prefix", kind);
  const opening = joined("opening", kind);
  const parts = [
    ...(prefix ? [`(?:${prefix})\\s*[:：]`] : []),
    ...(opening ? [`(?:${opening})(?![\\p{L}])`] : []),
  ];
  return parts.length > 0 ? [{ kind, re: new RegExp(`^(?:${parts.join("|")})`, "iu") }] : [];
});

const rulesOf = (table: "subject" | "body"): Rule[] =>
  KIND_ORDER.flatMap((kind): Rule[] => {
    const src = joined(table, kind);
    if (!src) return [];
    const rule: Rule = { kind, re: new RegExp(src, "iu") };
    if (table === "body" && kind === "shipped") rule.unless = FUTURE_SHIPMENT;
    return [rule];
  });

const WEAK_SUBJECT: Rule[] = rulesOf("subject");
const BODY: Rule[] = rulesOf("body");

/** Only some items: "Partial item(s) cancellation", "… from your order", "the rest of your order". */
const CANCEL_PARTIAL =
  /\bpartial\b|\bfrom your (?:amazon[\w.]* )?order\b|\bthe rest of your order\b|\bremaining items?\b|\bitem\(s\) cancell?ed\b/i;
/** The whole order: "Your order #… has been canceled", "Order Cancellation". */
const CANCEL_ORDER =
  /\border\b.{0,40}\b(?:has been|was|is) (?:successfully )?cancell?ed\b|\bcancell?ed your (?:entire |whole )?order\b|^order cancell?ation\b/i;
const CANCEL_ITEM_WORDING = /\bitems?\b.{0,40}\bcancell?ed\b|\bcancell?ed\b.{0,20}\bitems?\b/i;

const MAX_BODY_LINES = 400;

const quoteLine = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

function bodyKind(lines: string[]): { kind: MailKind; line: string } | null {
  const n = Math.min(lines.length, MAX_BODY_LINES);
  for (let i = 0; i < n; i++) {
    const l = lines[i] ?? "";
    if (l.length <= 600 && OTHER_BODY.test(l)) return { kind: "other", line: l };
  }
  for (const rule of BODY) {
    for (let i = 0; i < n; i++) {
      const l = lines[i] ?? "";
      if (l.length <= 600 && rule.re.test(l) && !rule.unless?.test(l)) {
        return { kind: rule.kind, line: l };
      }
    }
  }
  return null;
}

function firstMatch(re: RegExp, lines: string[]): RegExpExecArray | null {
  const n = Math.min(lines.length, MAX_BODY_LINES);
  for (let i = 0; i < n; i++) {
    const l = lines[i] ?? "";
    if (l.length > 600) continue;
    const m = re.exec(l);
    if (m) return m;
  }
  return null;
}

function cancelScope(subject: string, lines: string[]): "order" | "items" {
  const body = lines.slice(0, MAX_BODY_LINES).filter((l) => l.length <= 600);
  const any = (re: RegExp) => re.test(subject) || body.some((l) => re.test(l));
  if (any(CANCEL_PARTIAL)) return "items";
  if (any(CANCEL_ORDER)) return "order";
  return any(CANCEL_ITEM_WORDING) ? "items" : "order";
}

/**
 * @param subjectRaw the Subject header as decoded
 * @param bodyLines the body's lines above the recommendations and footer
 * @param namesOrder whether the message names an order number anywhere
 * @param role the order sender's role (senders.ts `senderRole`), null for any other sender
 */
export function classify(
  subjectRaw: string,
  bodyLines: string[],
  namesOrder: boolean,
  role: SenderRole | null = null,
): Classification {
  const subject = normaliseSubject(subjectRaw);
  const unquoted = withoutQuoted(subject);
  const done = (kind: MailKind, reason: string): Classification => ({
    kind,
    reason,
    cancelScope: kind === "canceled" ? cancelScope(subject, bodyLines) : null,
  });

  const collected = namesOrder
    ? (COLLECTED.exec(unquoted) ?? firstMatch(COLLECTED, bodyLines))
    : null;
  if (collected) return done("delivered", `collected from a pickup point: "${collected[0]}"`);

  const other = OTHER_SUBJECT.exec(unquoted);
  if (other) return done("other", `subject mentions "${other[0]}"`);

  for (const rule of STRONG_SUBJECT) {
    const m = rule.re.exec(subject);
    if (m) return done(rule.kind, `subject starts "${m[0].trim()}"`);
  }

  const body = bodyKind(bodyLines);
  if (body?.kind === "other") return done("other", `body says "${quoteLine(body.line)}"`);

  let weak: Rule | null = null;
  for (const rule of WEAK_SUBJECT) {
    if (rule.re.test(unquoted)) {
      weak = rule;
      break;
    }
  }

  if (body) {
    if (!namesOrder && !weak) {
      return done("other", `body says "${quoteLine(body.line)}" but no order number`);
    }
    const agree = weak && weak.kind === body.kind ? " (subject agrees)" : "";
    return done(body.kind, `body says "${quoteLine(body.line)}"${agree}`);
  }
  if (weak) return done(weak.kind, `subject wording (${weak.kind})`);
  // Structure: an order sender and an order number make an order mail in any
  // language; confirmations and shipping senders send one kind each, "update" senders several.
  if (role && namesOrder) {
    if (role !== "update")
      return done(role, `sent by an order sender (${role}) with an order number`);
    return {
      kind: "other",
      reason: "an order update with an order number, but no wording tells its kind",
      cancelScope: null,
      undecided: true,
    };
  }
  return done("other", "no order, shipment or delivery wording in subject or body");
}

const FORWARD_BODY =
  /^-{2,} ?(?:forwarded message|original message|weitergeleitete nachricht|messaggio inoltrato|message transféré|mensaje reenviado) ?-{2,}$|^begin forwarded message:?$|^inizio messaggio inoltrato:?$|^anfang der weitergeleiteten nachricht:?$/i;

/** Subject "Fwd:"-style prefix, or a forward separator near the top of the body. */
export function looksForwarded(subjectRaw: string, bodyLines: string[]): boolean {
  if (/^\s*(?:fwd?|fw|wg|tr|i)\s*:/i.test(clean(subjectRaw.slice(0, 200)))) return true;
  const n = Math.min(bodyLines.length, 200);
  for (let i = 0; i < n; i++) {
    const l = bodyLines[i] ?? "";
    if (l.length <= 120 && FORWARD_BODY.test(l)) return true;
  }
  return false;
}
