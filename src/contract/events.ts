/**
 * Live events (docs/api.md#live-events): GET /api/events/stream?token=… sends one
 * `data: {type, table, operation, timestamp}` per change of the signed-in user's data.
 *
 * `type` names what changed (`order.updated`, `alert-channel.delivered`, …); the web refetches
 * by it (web/lib/live-events-keys.ts). `table` and `operation` are the product specification's
 * message fields, derived here from the type, so a client that follows the specification's
 * per-table rules keeps working. Nothing else travels: no ids, no content.
 */
import type { EventTable } from "./constants.ts";

export type EventOperation = "INSERT" | "UPDATE" | "DELETE" | "STATUS";

/** Every event the server publishes, with the specification's table and operation for it. */
export const LIVE_EVENTS = {
  /** An order was added (form, mail, Vine report). */
  "order.created": ["order", "INSERT"],
  /** One or more orders changed: edits, status, tracking, review text, a Vine report import. */
  "order.updated": ["order", "UPDATE"],
  "order.deleted": ["order", "DELETE"],
  /** A review's photos or videos changed (uploaded, removed, reordered). */
  "review.updated": ["order", "UPDATE"],
  "notification.created": ["notification", "INSERT"],
  /** Marked read (one or all). */
  "notification.updated": ["notification", "UPDATE"],
  "notification.deleted": ["notification", "DELETE"],
  "alert-channel.created": ["user", "INSERT"],
  "alert-channel.updated": ["user", "UPDATE"],
  "alert-channel.deleted": ["user", "DELETE"],
  /** An alert (or a test) was sent or failed: the channel's delivery list changed. */
  "alert-channel.delivered": ["user", "UPDATE"],
  "review-settings.updated": ["user", "UPDATE"],
  "vine-settings.updated": ["user", "UPDATE"],
  /** Time zone and daily update time (the zone is also the user's display zone). */
  "tracking-preferences.updated": ["user", "UPDATE"],
  /** Which mail is imported ("vine" or "all"). */
  "import-mode.updated": ["user", "UPDATE"],
  "mailbox.connected": ["user", "UPDATE"],
  /** Disconnected by the user, or its credentials were refused. */
  "mailbox.disconnected": ["user", "UPDATE"],
  /** The monitored folder, the processed folder or mark-as-read was saved. */
  "mailbox-settings.updated": ["user", "UPDATE"],
  /** The folder list was read again from the server. */
  "mail-folders.updated": ["user", "UPDATE"],
  /** A scan ended: the count of scanned mails and the last processed time changed. */
  "mailbox.scanned": ["user", "UPDATE"],
  /** "Process Old Emails" is running: its progress moved. */
  "mailbox.scanning": ["IMAP", "UPDATE"],
  /** The connection's state changed (connecting, idle, polling, disconnected…). */
  "mailbox.status": ["IMAP", "STATUS"],
  /** A manual reconnect or real-time retry used one of the rate-limited attempts. */
  "mailbox-attempts.updated": ["MANUAL_RECONNECT", "UPDATE"],
} as const satisfies Record<string, readonly [EventTable, EventOperation]>;

export type LiveEventType = keyof typeof LIVE_EVENTS;
export const LIVE_EVENT_TYPES = Object.keys(LIVE_EVENTS) as LiveEventType[];
export type AlertChannelEvent = Extract<LiveEventType, `alert-channel.${string}`>;

export type LiveEvent = {
  type: LiveEventType;
  table: EventTable;
  operation: EventOperation;
  timestamp: string;
};
