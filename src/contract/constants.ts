/**
 * Plain constants shared by server and browser. No zod here: web/ may import values from this
 * file (and types from the others) without pulling the validation library into the bundle.
 */
export const ORDER_STATUSES = [
  "Ordered",
  "Shipped",
  "Received",
  "Review Submitted",
  "Review Approved",
  "Review Rejected",
  "Canceled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CARRIERS = ["UPS", "FEDEX", "USPS", "AMAZON", "OTHER"] as const;
export type Carrier = (typeof CARRIERS)[number];

/** Sort choices of the orders list (spec §2), as sent in ?sort=. */
export const ORDER_SORTS = [
  "newest",
  "oldest",
  "product-asc",
  "product-desc",
  "status-asc",
  "value-desc",
  "value-asc",
] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const ORDER_SORT_LABELS: Record<OrderSort, string> = {
  newest: "Newest First",
  oldest: "Oldest First",
  "product-asc": "Product A-Z",
  "product-desc": "Product Z-A",
  "status-asc": "Status A-Z",
  "value-desc": "Highest Value",
  "value-asc": "Lowest Value",
};

export const ORDERS_MAX_LIMIT = 500;

export const DASHBOARD_RECENT_COUNT = 6;

export const NOTIFICATION_LEVELS = ["critical", "warning", "information", "other"] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export const EVENT_TABLES = ["order", "notification", "user", "IMAP", "MANUAL_RECONNECT"] as const;
export type EventTable = (typeof EVENT_TABLES)[number];
/** A comment line is sent this often so proxies and Bun keep the stream open. */
export const SSE_HEARTBEAT_MS = 25_000;

export const MAILBOX_STATES = [
  "idle",
  "connected",
  "polling",
  "disconnected",
  "connecting",
] as const;
export type MailboxState = (typeof MAILBOX_STATES)[number];
/** "Process Old Emails" periods in days (spec §9); 30 is the default. */
export const OLD_EMAIL_PERIODS = [1, 7, 14, 30, 60, 90, 120, 150, 180] as const;
export const DEFAULT_OLD_EMAIL_PERIOD = 30;
