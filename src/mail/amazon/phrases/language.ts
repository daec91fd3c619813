/** The shape of one language's block of the reader's words (described in ../phrases.ts). */
import type { MailKind } from "../types.ts";

export type OrderKind = Exclude<MailKind, "other">;
type ByKind = Partial<Record<OrderKind, string[]>>;
export type LanguagePhrases = {
  prefix?: ByKind;
  opening?: ByKind;
  subject?: ByKind;
  body?: ByKind;
  otherSubject?: string[];
  otherBody?: string[];
  /** A parcel collected from a pickup point or locker: delivered (classify.ts). */
  collected?: string[];
  /** A total's label: strong ones first ("Order Total", "Gesamtbetrag"), then the bare word. */
  totalLabel?: string[];
  totalWord?: string[];
  /** Words that make a total line a subtotal or a total before tax. */
  notTotal?: string[];
  /** A line that starts with an estimate's label ("Zustellung: Montag", "Ankunft morgen"). */
  estimateLine?: string[];
  /** A label that ends its line, the date on the next ("La tua data di consegna prevista è:"). */
  estimateLabelAtEnd?: string[];
  /** The label of an item's quantity ("Menge: 2", "数量: 1"). */
  quantity?: string[];
  /** Headings that end the order section: recommendations, wish lists, the footer. */
  sectionEnd?: string[];
  /** The label before the ship-to address ("Ship to", "Lieferadresse"). */
  shipTo?: string[];
  /** The label before a tracking number, and how the mail names the carrier. */
  trackingLabel?: string[];
  carrierStated?: string[];
  carrierLabel?: string[];
};
