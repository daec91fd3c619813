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

/** One item a reviewer ordered (spec §3). Dates are ISO strings; expected_delivery_date is YYYY-MM-DD. */
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
    expectedDeliveryDate: text("expected_delivery_date"),
    expectedDeliveryDateText: text("expected_delivery_date_text"),
    /** True when expected_delivery_date was guessed from the text (the "Estimated" badge). */
    expectedDeliveryEstimated: integer("expected_delivery_estimated", { mode: "boolean" })
      .notNull()
      .default(false),
    dateOrdered: text("date_ordered"),
    dateDelivered: text("date_delivered"),
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
    index("orders_user_value_idx").on(t.userId, t.valueCents),
    index("orders_user_value_nulls_last_idx").on(
      t.userId,
      sql`${t.valueCents} IS NULL`,
      t.valueCents,
    ),
    index("orders_user_status_value_idx").on(t.userId, t.status, t.valueCents),
    index("orders_user_date_ordered_idx").on(t.userId, t.dateOrdered),
    // The per-filter orderings of spec §9 (nulls last where ascending).
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
