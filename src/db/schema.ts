/** The database schema. Only repos (features/<name>/<name>.repo.ts) import from here. */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Stored lower-cased and trimmed; unique. */
  email: text("email").notNull().unique(),
  displayname: text("displayname").notNull(),
  passwordHash: text("password_hash").notNull(),
  /** IANA zone saved from the browser or the tracking preferences; null until saved. */
  timezone: text("timezone"),
  /** Daily tracking check, local "HH:MM" in `timezone`; null means the default (09:00). */
  trackingUpdateTime: text("tracking_update_time"),
  /** When this user's last daily tracking check ran (ISO); a missed run is caught up at start. */
  trackingLastRunAt: text("tracking_last_run_at"),
  /** The user's Amazon Vine marketplace (US, UK, DE…): new orders' currency; null until known. */
  vineMarketplace: text("vine_marketplace"),
  /** The language the user reads Grapevine in (en de fr es it ja); null until chosen or sent by their browser. */
  language: text("language"),
  createdAt: text("created_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the bearer token, hex: the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/** One item a reviewer ordered (docs/behaviour.md#data). Dates are ISO strings; expected_delivery_date is YYYY-MM-DD. */
export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amazonOrderNumber: text("amazon_order_number"),
    productName: text("product_name").notNull(),
    productUrl: text("product_url"),
    productImage: text("product_image"),
    asin: text("asin"),
    shipToAddress: text("ship_to_address"),
    /** As the user or the mail wrote it, e.g. "24.99"; shown with a dollar sign. */
    estimatedRetailValue: text("estimated_retail_value"),
    /** The same value in cents, kept by the service, so value sorts and averages are numeric. */
    valueCents: integer("value_cents"),
    currency: text("currency").notNull().default("USD"),
    expectedDeliveryDate: text("expected_delivery_date"),
    expectedDeliveryDateText: text("expected_delivery_date_text"),
    /** True when expected_delivery_date was guessed from the text (the "Estimated" badge). */
    expectedDeliveryEstimated: integer("expected_delivery_estimated", { mode: "boolean" })
      .notNull()
      .default(false),
    dateOrdered: text("date_ordered"),
    dateDelivered: text("date_delivered"),
    /** YYYY-MM-DD the Itemized Report says it shipped: "Mark delivered"'s base. */
    dateShipped: text("date_shipped"),
    status: text("status").notNull().default("Ordered"),
    rating: integer("rating"),
    reviewSubject: text("review_subject"),
    reviewText: text("review_text"),
    /** JSON array of media URLs, in display order. */
    reviewImages: text("review_images").notNull().default("[]"),
    reviewReference: text("review_reference"),
    dateReviewSubmitted: text("date_review_submitted"),
    dateReviewApproved: text("date_review_approved"),
    dateReviewRejected: text("date_review_rejected"),
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    deliveryDetails: text("delivery_details"),
    lastTrackingUpdate: text("last_tracking_update"),
    /** Why Amazon will not get a review (features/vine): not-received, damaged, … or null. */
    cantReviewReason: text("cant_review_reason"),
    cantReviewNote: text("cant_review_note"),
    /** Vine support removed the order from the review list: it leaves the review rate. */
    reviewExempt: integer("review_exempt", { mode: "boolean" }).notNull().default(false),
    /**
     * The Date (ISO) of the mail that created the order, when mail created it; null for orders
     * typed or imported from a report. "Ordered today" reads it for an order without date_ordered.
     */
    mailDate: text("mail_date"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    index("orders_user_status_idx").on(t.userId, t.status),
    index("orders_user_number_idx").on(t.userId, t.amazonOrderNumber),
    // The orders list's sorts and the dashboard's aggregates walk these instead of sorting or
    // reading every row (see orders.repo.ts and dashboard.repo.ts).
    index("orders_user_product_idx").on(t.userId, sql`${t.productName} COLLATE NOCASE`),
    // Highest / Lowest Value: by currency, then amount (never mix units).
    index("orders_user_currency_value_idx").on(
      t.userId,
      t.currency,
      sql`${t.valueCents} DESC`,
      sql`${t.id} DESC`,
    ),
    index("orders_user_currency_value_nulls_last_idx").on(
      t.userId,
      t.currency,
      sql`${t.valueCents} IS NULL`,
      t.valueCents,
    ),
    // The dashboard's counts and values per status and currency read only this index (covering).
    index("orders_user_status_currency_value_idx").on(t.userId, t.status, t.currency, t.valueCents),
    // The dashboard's "ordered in this day/month" counts read only this index (covering): both
    // its ranges, by date_ordered and by created_at where date_ordered is null (migration 0005).
    index("orders_user_ordered_idx").on(t.userId, t.dateOrdered, t.createdAt, t.status),
    // The per-filter orderings of docs/behaviour.md#constants-and-limits (nulls last where ascending).
    index("orders_user_status_delivered_idx").on(
      t.userId,
      t.status,
      sql`${t.dateDelivered} IS NULL`,
      t.dateDelivered,
    ),
    index("orders_user_status_expected_idx").on(
      t.userId,
      t.status,
      sql`CASE WHEN ${t.expectedDeliveryDate} IS NULL THEN 2 WHEN ${t.expectedDeliveryEstimated} THEN 1 ELSE 0 END`,
      t.expectedDeliveryDate,
    ),
    index("orders_user_status_submitted_idx").on(
      t.userId,
      t.status,
      sql`${t.dateReviewSubmitted} IS NULL`,
      t.dateReviewSubmitted,
    ),
    index("orders_user_status_approved_idx").on(t.userId, t.status, t.dateReviewApproved),
    index("orders_user_status_rejected_idx").on(
      t.userId,
      t.status,
      sql`${t.dateReviewRejected} IS NULL`,
      t.dateReviewRejected,
    ),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** HTML built on the server from escaped values; sanitised again in the browser. */
    message: text("message").notNull(),
    /**
     * What the notification says as catalog messages (JSON of NotificationMessage,
     * src/features/notifications/message.ts), rendered in the reader's language when it is read;
     * null for notifications from before languages (their `message` is shown).
     */
    content: text("content"),
    level: text("level").notNull().default("information"),
    isRead: integer("is_read", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.createdAt)],
);

/** Which review reminders were already sent, so each threshold is announced once per order. */
export const reminders = sqliteTable(
  "reminders",
  {
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** e.g. "received-14", "rejected-3" */
    kind: text("kind").notNull(),
    sentAt: text("sent_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.kind] })],
);

export type OrderRow = typeof orders.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

/** The one connected mailbox of a user (Gmail by OAuth or by app password). */
export const mailboxAccounts = sqliteTable("mailbox_accounts", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  provider: text("provider").notNull().default("gmail"),
  /** "oauth" or "app-password" */
  authType: text("auth_type").notNull(),
  emailAddress: text("email_address").notNull(),
  /** The refresh token or the app password, encrypted with the data folder's key. */
  secretEnc: text("secret_enc"),
  /** "ok", or "expired" when Google refused the refresh token (spec: Email Authorization Expired). */
  authState: text("auth_state").notNull().default("ok"),
  isConnected: integer("is_connected", { mode: "boolean" }).notNull().default(true),
  selectedFolder: text("selected_folder").notNull().default("INBOX"),
  processedFolder: text("processed_folder"),
  markProcessedAsRead: integer("mark_processed_as_read", { mode: "boolean" })
    .notNull()
    .default(false),
  /** JSON array of {name, path, specialUse}. */
  foldersJson: text("folders_json"),
  lastFolderRefresh: text("last_folder_refresh"),
  createdAt: text("created_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

/** Where reading stopped in each folder (IMAP UIDs are only meaningful with their UIDVALIDITY). */
export const mailFolderState = sqliteTable(
  "mail_folder_state",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    folder: text("folder").notNull(),
    uidValidity: integer("uid_validity").notNull(),
    lastUid: integer("last_uid").notNull().default(0),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.folder] })],
);

/** The ledger: each message is processed once per user, whatever folder or UID it has now. */
export const processedMessages = sqliteTable(
  "processed_messages",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The Message-ID, or "sha256:<hex>" of the raw message when it has none. */
    messageKey: text("message_key").notNull(),
    /** "created", "updated", "unchanged" or "skipped" */
    outcome: text("outcome").notNull(),
    /** A SkipReason when skipped. */
    reason: text("reason"),
    kind: text("kind"),
    ordersCreated: integer("orders_created").notNull().default(0),
    ordersUpdated: integer("orders_updated").notNull().default(0),
    processedAt: text("processed_at").notNull().default(now),
    /**
     * 1 when the import mode kept something of this message out ("vine" mode: a paid order, or
     * a later mail "all" mode would create orders from): read again once the mode allows it.
     */
    modeLimited: integer("mode_limited").notNull().default(0),
    /**
     * The message's Date (ISO), kept for messages that may be read again (mode-limited, not
     * understood, read incompletely): the period a re-scan covers.
     */
    mailDate: text("mail_date"),
    /** READER_VERSION of the reader that read it (rows from before versions: 1). */
    readerVersion: integer("reader_version").notNull().default(1),
    /**
     * What the mail showed but the reader could not read (MailFacts.unread, comma-separated:
     * "kind", "total", "items", "delivery-date"); null when it read everything. With reason
     * "not-understood" (nothing applied) or on an applied message (read incompletely), the
     * message is read again once READER_VERSION is higher than `readerVersion`.
     */
    unread: text("unread"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.messageKey] })],
);

/** Per-user mail counters and the import setting. */
export const mailStats = sqliteTable("mail_stats", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  emailsScanned: integer("emails_scanned").notNull().default(0),
  lastProcessedTime: text("last_processed_time"),
  /** "vine" (only $0.00 Vine orders, the default) or "all" Amazon orders. */
  importMode: text("import_mode").notNull().default("vine"),
  /**
   * The READER_VERSION for which the mailbox was last re-read (a backfill over the period of the
   * messages not understood or read incompletely); 1 until a newer reader asked for one.
   */
  mailboxRereadVersion: integer("mailbox_reread_version").notNull().default(1),
});

/** A running or interrupted "Process Old Emails" backfill, so it resumes after a restart. */
export const mailBackfills = sqliteTable("mail_backfills", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  folder: text("folder").notNull(),
  sinceDate: text("since_date").notNull(),
  /** UIDs at or below this one in `folder` (same UIDVALIDITY) are done. */
  doneThroughUid: integer("done_through_uid").notNull().default(0),
  uidValidity: integer("uid_validity"),
  status: text("status").notNull().default("running"),
  startedAt: text("started_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

/**
 * Files of a .eml/.mbox import in progress: a row per uploaded file, removed when the file is
 * read to its end (or the import answered an error). A row no running import owns was cut short
 * by a restart: the mailbox screen says which file stopped where.
 */
export const mailImports = sqliteTable("mail_imports", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  fileName: text("file_name").notNull(),
  fileBytes: integer("file_bytes").notNull(),
  /** Messages of the file read (committed) so far. */
  messagesRead: integer("messages_read").notNull().default(0),
  startedAt: text("started_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

/** OAuth authorization requests in flight (state → user, PKCE verifier), short-lived. */
export const oauthStates = sqliteTable("oauth_states", {
  state: text("state").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  codeVerifier: text("code_verifier").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

export type MailboxAccountRow = typeof mailboxAccounts.$inferSelect;

/** Review settings (docs/behaviour.md#data); no row means the defaults (DEFAULT_REVIEW_SETTINGS). */
export const reviewSettings = sqliteTable("review_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  targetWordCount: integer("target_word_count").notNull(),
  aiEditingOption: text("ai_editing_option").notNull(),
  /** JSON object: tone name → percentage, summing to 100. */
  toneAllocation: text("tone_allocation").notNull(),
  autoGenerateSubject: integer("auto_generate_subject", { mode: "boolean" }).notNull(),
  updatedAt: text("updated_at").notNull().default(now),
});
export type ReviewSettingsRow = typeof reviewSettings.$inferSelect;

/** Vine thresholds (features/vine); no row means the US defaults (DEFAULT_VINE_SETTINGS). */
export const vineSettings = sqliteTable("vine_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tier: text("tier").notNull(),
  rateWindowDays: integer("rate_window_days").notNull(),
  rateMinimum: integer("rate_minimum").notNull(),
  /** YYYY-MM-DD, both set or both null. */
  evaluationStart: text("evaluation_start"),
  evaluationEnd: text("evaluation_end"),
  goldItems: integer("gold_items").notNull(),
  goldPercent: integer("gold_percent").notNull(),
  dailyLimitSilver: integer("daily_limit_silver").notNull(),
  dailyLimitGold: integer("daily_limit_gold").notNull(),
  /** "HH:MM" in the user's zone: the evaluation period's start and end times. */
  evaluationStartTime: text("evaluation_start_time").notNull().default("00:00"),
  evaluationEndTime: text("evaluation_end_time").notNull().default("23:59"),
  /** How the review rate is counted: "2025" (approved / delivered) or "legacy" (submitted / ordered). */
  rateRule: text("rate_rule").notNull().default("2025"),
  updatedAt: text("updated_at").notNull().default(now),
});
export type VineSettingsRow = typeof vineSettings.$inferSelect;

/** Alert channels of a user (ntfy, webhook, Web Push): see src/features/alerts/. */
export const alertChannels = sqliteTable(
  "alert_channels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "ntfy" | "webhook" | "webpush" */
    type: text("type").notNull(),
    name: text("name").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** JSON array of AlertEvent. */
    events: text("events").notNull(),
    /** Local "HH:MM" in the user's zone; both null = no quiet hours. */
    quietStart: text("quiet_start"),
    quietEnd: text("quiet_end"),
    /** JSON of what is not secret (ntfy server, webhook format, device name). */
    settings: text("settings").notNull(),
    /** JSON of the secrets (token, topic, webhook URL, push subscription), encrypted (lib/secrets). */
    secret: text("secret").notNull(),
    /** SHA-256 of the push endpoint: one webpush channel per device. */
    deviceKey: text("device_key"),
    /** The first failure since the last success (ISO); a day of failures pauses the channel. */
    failingSince: text("failing_since"),
    pausedAt: text("paused_at"),
    pausedReason: text("paused_reason"),
    /**
     * `pausedReason` as a server text (JSON of TextPart, src/contract/text.ts), said in the
     * reader's language; null for channels paused before it (their `pausedReason` is shown).
     */
    pausedReasonContent: text("paused_reason_content"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    index("alert_channels_user_idx").on(t.userId),
    index("alert_channels_device_idx").on(t.userId, t.deviceKey),
  ],
);
export type AlertChannelRow = typeof alertChannels.$inferSelect;

/** Alerts to send and sent (the last few per channel are kept as its delivery history). */
export const alertOutbox = sqliteTable(
  "alert_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channelId: integer("channel_id")
      .notNull()
      .references(() => alertChannels.id, { onDelete: "cascade" }),
    /** An AlertEvent, or "test". */
    event: text("event").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    /** The order the alert is about, as JSON {id, number, product, status}; null for none. */
    orderJson: text("order_json"),
    /** "pending" | "sent" | "failed" */
    status: text("status").notNull().default("pending"),
    /** Held for quiet hours: sent with the others of that night as one summary. */
    quiet: integer("quiet", { mode: "boolean" }).notNull().default(false),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    /** What the far side said (or why nothing was sent), for the delivery list. */
    result: text("result"),
    /**
     * `result` as a server text (JSON of TextPart, src/contract/text.ts), said in the reader's
     * language; null for rows from before it (their `result` is shown).
     */
    resultContent: text("result_content"),
    createdAt: text("created_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("alert_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("alert_outbox_channel_idx").on(t.channelId, t.id),
  ],
);
export type AlertOutboxRow = typeof alertOutbox.$inferSelect;

/** Keys the server makes once and keeps (the Web Push VAPID key pair; private half encrypted). */
export const serverKeys = sqliteTable("server_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: text("created_at").notNull().default(now),
});

/**
 * What the tracking checks know about trouble with an order's parcel (the "Tracking
 * problem" alert): how many checks in a row the carrier did not know the number, and which
 * problem the user was last told about (so each is told once). A row belongs to one tracking
 * number; a new number starts afresh.
 */
export const trackingProblems = sqliteTable("tracking_problems", {
  orderId: integer("order_id")
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  trackingNumber: text("tracking_number").notNull(),
  notFoundChecks: integer("not_found_checks").notNull().default(0),
  /** The TrackingProblem (or "not-found") the user was notified of; null: none now. */
  notified: text("notified"),
  updatedAt: text("updated_at").notNull().default(now),
});
export type TrackingProblemRow = typeof trackingProblems.$inferSelect;
