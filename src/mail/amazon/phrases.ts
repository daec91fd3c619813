/**
 * Every language's words in the Amazon mail reader, one language in one file (phrases/):
 * those that tell the kind of a mail (classify.ts joins them) and the labels of the fields read
 * in every language (totals, estimates, quantities: fields.ts, text-items.ts). To teach the
 * reader a language, add its file in phrases/ and its entry in PHRASES (and its real samples to
 * test/fixtures/mail/real/): the sender and the mail's structure already make an order sender's
 * mail an order mail in any language (senders.ts `senderRole`); these words decide and refine
 * its kind.
 *
 * Each entry is a regular-expression source matched case-insensitively with the Unicode flag,
 * on one line (capped) at a time; none has a nested unbounded quantifier.
 * - `prefix`: how a subject of Amazon's current templates starts, before ":" ("Shipped:",
 *   "Versandt:", "Pedido:", "注文済み:").
 * - `opening`: how a subject starts without a colon ("Out for delivery", "In Zustellung",
 *   "Consegna effettuata").
 * - `subject`: wording anywhere in an older subject ("has been dispatched", "wurde versandt").
 * - `body`: a sentence of the body's headline ("Your package has been delivered!",
 *   "Gracias por tu pedido"); bare status words never count (the 2025 progress bar prints them
 *   all in every mail).
 * - `otherSubject`, `otherBody`: mail about something else even when it names an order:
 *   one-time passwords, refunds and returns, review requests, Subscribe & Save, Hub pickups.
 * - `collected`: a parcel collected from a pickup point or locker (classify.ts: "delivered").
 * - `totalLabel`, `totalWord`, `notTotal`, `estimateLine`, `estimateLabelAtEnd`, `quantity`,
 *   `sectionEnd`, `shipTo`, `trackingLabel`, `carrierStated`, `carrierLabel`: the labels and
 *   headings the field finders look for (see each).
 */
import { de } from "./phrases/de.ts";
import { en } from "./phrases/en.ts";
import { es } from "./phrases/es.ts";
import { fr } from "./phrases/fr.ts";
import { it } from "./phrases/it.ts";
import { ja } from "./phrases/ja.ts";
import type { LanguagePhrases, OrderKind } from "./phrases/language.ts";
import { nl } from "./phrases/nl.ts";
import { pt } from "./phrases/pt.ts";

export type { LanguagePhrases, OrderKind } from "./phrases/language.ts";

/** In this order: the alternations are joined in it. */
export const PHRASES: Record<string, LanguagePhrases> = { en, de, fr, it, es, pt, nl, ja };

/** The kinds in the order classify.ts tries them: the most specific news first. */
export const KIND_ORDER: OrderKind[] = [
  "canceled",
  "delivered",
  "out-for-delivery",
  "delayed",
  "shipped",
  "ordered",
];

/** Every language's entries of one table and kind, in one alternation. */
export function joined(
  table: "prefix" | "opening" | "subject" | "body",
  kind: OrderKind,
): string | null {
  const all = Object.values(PHRASES).flatMap((p) => p[table]?.[kind] ?? []);
  return all.length > 0 ? all.join("|") : null;
}

type ListKey =
  | "collected"
  | "otherSubject"
  | "otherBody"
  | "totalLabel"
  | "totalWord"
  | "notTotal"
  | "estimateLine"
  | "estimateLabelAtEnd"
  | "quantity"
  | "sectionEnd"
  | "shipTo"
  | "trackingLabel"
  | "carrierStated"
  | "carrierLabel";

/** Every language's entries of a list (labels, "about something else"), in one alternation. */
export function joinedList(table: ListKey): string {
  return Object.values(PHRASES)
    .flatMap((p) => p[table] ?? [])
    .join("|");
}
