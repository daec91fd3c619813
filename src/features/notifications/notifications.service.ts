/**
 * Notifications: the user's list and its actions, and `notify`, which other features (jobs, mail,
 * tracking) call to tell a user something. Every change is published on the event bus after the
 * write, so open browsers refetch the list.
 */

import { NOTIFICATION_LEVELS } from "../../contract/constants.ts";
import type { AlertEvent, Notification, NotificationLevel } from "../../contract/index.ts";
import type { NotificationRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import { notFound } from "../../util/errors.ts";
import { plural } from "../../util/plural.ts";
import { SafeHtml, toPlainText } from "./html.ts";
import type { NotificationsRepo } from "./notifications.repo.ts";

/** GET /api/notifications answers at most this many, newest first. */
export const NOTIFICATIONS_LIST_CAP = 200;
/** A message longer than this is a bug in the caller, not something to store. */
export const NOTIFICATION_MESSAGE_MAX = 10_000;

const NOT_FOUND = "Notification not found";

export function isNotificationLevel(level: unknown): level is NotificationLevel {
  return (NOTIFICATION_LEVELS as readonly unknown[]).includes(level);
}

export function toNotification(row: NotificationRow): Notification {
  return {
    notificationid: row.id,
    message: row.message,
    level: isNotificationLevel(row.level) ? row.level : "other",
    isread: row.isRead,
    createdate: row.createdAt,
  };
}

/**
 * What a notification is about, for alert channels (features/alerts): its event kind(s) (see
 * ALERT_EVENTS in contract/alerts.ts) and the order, when there is one.
 */
export type NotificationAlert = { event: AlertEvent | readonly AlertEvent[]; orderId?: number };

export function createNotificationsService(deps: {
  repo: NotificationsRepo;
  events: EventBus;
  /** Queues alerts for a notification that carries an event kind; must not throw or wait. */
  onAlert?: (userId: number, text: string, alert: NotificationAlert) => void;
}) {
  const { repo, events } = deps;

  return {
    list(userId: number): Notification[] {
      return repo.listForUser(userId, NOTIFICATIONS_LIST_CAP).map(toNotification);
    },

    markRead(userId: number, id: number) {
      if (!repo.findOwned(userId, id)) throw notFound(NOT_FOUND);
      if (repo.markRead(userId, id) > 0) events.publish(userId, "notification.updated");
      return { success: true as const, message: "Notification marked as read" };
    },

    remove(userId: number, id: number) {
      if (repo.delete(userId, id) === 0) throw notFound(NOT_FOUND);
      events.publish(userId, "notification.deleted");
      return { success: true as const, message: "Notification deleted" };
    },

    markAllRead(userId: number) {
      const updated = repo.markAllRead(userId);
      if (updated > 0) events.publish(userId, "notification.updated");
      return {
        success: true as const,
        message:
          updated === 0
            ? "No unread notifications"
            : `${plural(updated, { one: "notification", other: "notifications" })} marked as read`,
        updated,
      };
    },

    deleteAll(userId: number) {
      const deleted = repo.deleteAll(userId);
      if (deleted > 0) events.publish(userId, "notification.deleted");
      return {
        success: true as const,
        message:
          deleted === 0
            ? "No notifications to delete"
            : `${plural(deleted, { one: "notification", other: "notifications" })} deleted`,
        deleted,
      };
    },

    /**
     * Stores a notification for the user and tells their open browsers. `message` must come from
     * the `html` template (values escaped); an unknown level or a plain string is refused.
     * `alert` (optional) names the event kind and order: the user's alert channels that chose the
     * event get it too, sent in the background (never delaying this call).
     */
    notify(
      userId: number,
      level: NotificationLevel,
      message: SafeHtml,
      alert?: NotificationAlert,
    ): Notification {
      if (!isNotificationLevel(level)) {
        throw new TypeError(
          `Unknown notification level "${String(level)}": use one of ${NOTIFICATION_LEVELS.join(", ")}`,
        );
      }
      if (!(message instanceof SafeHtml)) {
        throw new TypeError("A notification message must be built with the html template");
      }
      const text = message.toString();
      if (text.trim() === "") throw new TypeError("A notification message cannot be empty");
      if (text.length > NOTIFICATION_MESSAGE_MAX) {
        throw new RangeError(
          `A notification message is limited to ${NOTIFICATION_MESSAGE_MAX} characters`,
        );
      }
      const row = repo.insert({ userId, level, message: text });
      events.publish(userId, "notification.created");
      if (alert) deps.onAlert?.(userId, toPlainText(message), alert);
      return toNotification(row);
    },

    /** The user's notifications for GET /api/user/export (all of them, newest first). */
    exportSection(userId: number): { notifications: Notification[] } {
      return { notifications: repo.listForUser(userId).map(toNotification) };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
