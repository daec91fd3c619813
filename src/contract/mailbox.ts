/** Mailbox (docs/behaviour.md#data Mailbox status, Mail folder; docs/api.md Mailbox). */
import { z } from "zod";
import { type MailboxState, OLD_EMAIL_PERIODS } from "./constants.ts";
import { says } from "./errors.ts";
import type { TextValue } from "./text.ts";

/** A rate-limited action the user can take (manual reconnect, retry real-time). */
export type MailboxAction = {
  available: boolean;
  /** In English words, and as a catalog id with values (src/contract/text.ts). */
  message: string;
  messageCode?: string;
  messageValues?: Record<string, TextValue>;
  /** ISO time when the next attempt is allowed, or null when it is allowed now. */
  nextAttemptTime: string | null;
  buttonState: "enabled" | "disabled" | "cooldown" | "hidden";
  remainingAttempts: { window: number; daily: number };
};

/** GET /api/imap/status */
export type MailboxStatus = {
  status: MailboxState;
  manualReconnect: MailboxAction;
  idleRetry: MailboxAction;
  /** Why it is not connected, in words a person can act on; null when fine. */
  lastError: string | null;
  /** The same as a catalog id and its values (src/contract/text.ts); null for a mail server's own words. */
  lastErrorCode: string | null;
  lastErrorValues?: Record<string, TextValue>;
  folder: string | null;
  lastProcessedTime: string | null;
  emailsScanned: number;
  /** When the next automatic connection attempt is due (ISO), while waiting after a fault. */
  nextAttemptTime: string | null;
  /** True from a fault (lost, stalled, refused for now) until a connection works again. */
  reconnecting: boolean;
};

/** GET /api/imap/folders */
export type MailFolder = { name: string; path: string; specialUse: string | null };

export const processEmailsBody = z.object({
  daysBack: z
    .number({ error: says("days_back_number") })
    .int(says("whole_number", { name: "daysBack" }))
    .refine((n) => (OLD_EMAIL_PERIODS as readonly number[]).includes(n), {
      message: says("days_back_period", { periods: OLD_EMAIL_PERIODS.join(", ") }),
    }),
});

export const folderSelectBody = z.object({
  selectedFolder: z
    .string({ error: says("name_required", { name: "selectedFolder" }) })
    .trim()
    .min(1, says("name_required", { name: "selectedFolder" }))
    .max(500),
  processedFolder: z.string().trim().max(500).nullish(),
  markProcessedAsRead: z.boolean({ error: says("name_boolean", { name: "markProcessedAsRead" }) }),
});

/** POST /api/imap/app-password: connect Gmail with an app password (no Google Cloud project). */
export const appPasswordBody = z.object({
  email: z
    .string({ error: says("field_required", { field: "gmailAddress" }) })
    .trim()
    .toLowerCase()
    .min(1, says("field_required", { field: "gmailAddress" }))
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, says("gmail_address_invalid")),
  appPassword: z
    .string({ error: says("field_required", { field: "appPassword" }) })
    .transform((s) => s.replace(/\s+/g, ""))
    .pipe(
      z
        .string()
        .min(1, says("field_required", { field: "appPassword" }))
        .max(64, says("field_too_long_plain", { field: "appPassword" })),
    ),
});

/** Why a message produced nothing, as counted in a scan or import summary. */
export const SKIP_REASONS = [
  "not-amazon",
  "spoofed",
  "forwarded",
  "duplicate",
  "not-an-order-mail",
  "not-vine",
  "unreadable",
  "no-matching-order",
  "too-large",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Where each message read went: every message is in exactly one bucket, and the buckets add up
 * to `messagesRead` (docs/behaviour.md#mail).
 */
export type MessageBuckets = {
  /** Messages that created at least one order. */
  created: number;
  /** Messages that updated orders (and created none). */
  updated: number;
  /** Messages about orders Grapevine has that changed nothing (e.g. a late "Delivered"). */
  unchanged: number;
  /**
   * Amazon mail the reader could not understand enough to act on (an order confirmation whose
   * total could not be read in "Vine orders only", order mail of an unknown kind): kept in the
   * ledger and read again when Grapevine's mail reader improves.
   */
  notUnderstood: number;
  /** Messages skipped for a reason of `skipped` (their sum). */
  skipped: number;
};

/** POST /api/imap/import and the summary of a scan. */
export type IngestSummary = {
  messagesRead: number;
  /** Orders (not messages: one confirmation may create several). */
  ordersCreated: number;
  ordersUpdated: number;
  /** Messages by bucket; they add up to messagesRead. */
  messages: MessageBuckets;
  skipped: Partial<Record<SkipReason, number>>;
  /** `messages.notUnderstood` by the marketplace of the sender ("unknown" for others). */
  notUnderstoodByMarketplace: Partial<Record<string, number>>;
  /**
   * Messages "Vine orders only" kept (part of) out: paid orders, and later mail about orders
   * "All Amazon orders" would create. Counted in their bucket too (mostly skipped "not-vine").
   */
  modeLimited: number;
  /** The import mode the messages were read with. */
  importMode: "vine" | "all";
  /**
   * Amazon mail the reader did not take for order mail ("not-an-order-mail"), by the marketplace
   * of its sender (US, FR…, "unknown"): mail in a language the reader does not know shows here.
   */
  otherByMarketplace?: Partial<Record<string, number>>;
};

/** GET /api/imap/imports: a file of an .eml/.mbox import that stopped before its end. */
export type InterruptedImport = {
  fileName: string;
  fileBytes: number;
  /** Messages of the file read (committed) before it stopped. */
  messagesRead: number;
  startedAt: string;
  /** When its progress was last recorded (the stop came after). */
  lastProgressAt: string;
  /** What happened and what to do, in words. */
  message: string;
};

/** PUT /api/imap/import-mode: which order confirmations become orders. */
export const importModeBody = z.object({
  importMode: z.enum(["vine", "all"], {
    error: says("import_mode_invalid"),
  }),
});
