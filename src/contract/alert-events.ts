/**
 * The alert event kinds and channel types as plain data (no zod), so the web app can import them
 * at run time. `notify(userId, level, message, { event, orderId })` takes an AlertEvent.
 */

/** Every kind of event an alert channel can choose. The last two reach the admin only. */
export const ALERT_EVENTS = [
  "new_order",
  "shipped",
  "delivered",
  "review_due",
  "review_overdue",
  "review_decided",
  "mailbox_attention",
  "tracking_problem",
  "disk_nearly_full",
  "mailbox_supervisor_failing",
] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** Server problems: only the admin's channels may choose them. */
export const ADMIN_ALERT_EVENTS: readonly AlertEvent[] = [
  "disk_nearly_full",
  "mailbox_supervisor_failing",
];

/** Labels shown on the Account page and used as alert titles. */
export const ALERT_EVENT_LABELS: Record<AlertEvent, string> = {
  new_order: "New order",
  shipped: "Shipped",
  delivered: "Delivered",
  review_due: "Review due",
  review_overdue: "Review overdue",
  review_decided: "Review approved / rejected",
  mailbox_attention: "Mailbox needs attention",
  tracking_problem: "Tracking problem",
  disk_nearly_full: "Disk nearly full",
  mailbox_supervisor_failing: "Mailbox supervisor failing",
};

export const ALERT_CHANNEL_TYPES = ["ntfy", "webhook", "webpush"] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];
export const WEBHOOK_FORMATS = ["json", "discord", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const DEFAULT_NTFY_SERVER = "https://ntfy.sh";
