/**
 * What the Amazon mail reader gives the ingestion pipeline. The reader is pure: it never touches
 * the database; the pipeline decides what an order becomes (and never moves one backwards).
 */
import type { Carrier, MarketplaceCode } from "../../contract/index.ts";

/** A message as the pipeline sees it, whatever its source (IMAP, .eml, .mbox). */
export type MailMessage = {
  /** Message-ID header without angle brackets; null when the message has none. */
  messageId: string | null;
  from: { address: string; name: string } | null;
  subject: string;
  /** The Date header, or null. */
  date: Date | null;
  html: string | null;
  text: string | null;
  /** Header lines in order, lower-cased names (Authentication-Results may repeat). */
  headers: Array<{ name: string; value: string }>;
};

export type MailKind =
  | "ordered"
  | "shipped"
  | "out-for-delivery"
  | "delivered"
  | "canceled"
  | "delayed"
  | "other";

export type Marketplace = MarketplaceCode | "unknown";

export type MailItem = {
  productname: string;
  asin: string | null;
  producturl: string | null;
  productimage: string | null;
  /** Unit price as written, normalised to "12.34"; null when not shown. */
  price: string | null;
  quantity: number;
};

/** One order the message is about. */
export type MailOrder = {
  amazonordernumber: string;
  /** Items this message names; empty when the message names none (e.g. "1 item"). */
  items: MailItem[];
  shiptoaddress: string | null;
  /** ISO date-time when known (order confirmation: the mail's date). */
  dateordered: string | null;
  expecteddeliverydatetext: string | null;
  /**
   * The day the estimate names ("YYYY-MM-DD"), read from the mail's date with chrono-node in the
   * marketplace's language; null when the text names no day. Optional for the pipeline's tests.
   */
  expecteddeliverydate?: string | null;
  trackingnumber: string | null;
  carrier: Carrier | null;
  /** ISO date-time for delivered mail. */
  datedelivered: string | null;
  /** Order or shipment total as written, normalised "0.00"; used for the Vine ($0.00) rule. */
  total: string | null;
  /**
   * Cancellation mail only: "order" when the whole order was canceled, "items" when only the
   * items listed (or named in the subject) were.
   */
  cancelscope?: "order" | "items";
};

export type MailFacts = {
  kind: MailKind;
  marketplace: Marketplace;
  orders: MailOrder[];
  /** For logs and tests: why the reader decided this kind. */
  reason: string;
  /**
   * The subject or body looks like a forward ("Fwd:", "---------- Forwarded message ---------",
   * "Begin forwarded message:"). A hint for the pipeline, which refuses forwarded mail; the
   * reader itself reads it like any other.
   */
  forwarded?: boolean;
  /**
   * What this mail shows but the reader could not read: "kind" (an
   * order mail by its sender and structure whose kind no rule decided), "total" (an order
   * confirmation whose total could not be read, so the Vine rule cannot be decided), "items"
   * (product links but no item read), "delivery-date" (an estimate shown but not read).
   * Empty or absent when the reader read everything it looked for. The pipeline keeps such
   * messages in the ledger with READER_VERSION and reads them again when it changes.
   */
  unread?: UnreadField[];
};

export type UnreadField = "kind" | "total" | "items" | "delivery-date";
