/**
 * Notifications: the user's list and its actions, and `notify`, which other features (jobs, mail,
 * tracking) call to tell a user something. Every change is published on the event bus after the
 * write, so open browsers refetch the list.
 */

import { NOTIFICATION_LEVELS } from "../../contract/constants.ts";
import type { AlertEvent, Notification, NotificationLevel } from "../../contract/index.ts";
import type { NotificationRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import type { Language } from "../../i18n/languages.ts";
import { languageOrDefault, translate } from "../../i18n/translate.ts";
import { notFound } from "../../util/errors.ts";
import { SafeHtml, toPlainText } from "./html.ts";
import { type NotificationMessage, parseMessage, renderMessage } from "./message.ts";
import type { NotificationsRepo } from "./notifications.repo.ts";

/** GET /api/notifications answers at most this many, newest first. */
export const NOTIFICATIONS_LIST_CAP = 200;
/** A message longer than this is a bug in the caller, not something to store. */
export const NOTIFICATION_MESSAGE_MAX = 10_000;

export function isNotificationLevel(level: unknown): level is NotificationLevel {
  return (NOTIFICATION_LEVELS as readonly unknown[]).includes(level);
}

/**
 * A stored notification as the API shows it, in the reader's language: one stored as catalog
 * messages (`content`) is rendered now, so switching language changes old notifications too;
 * an older one (or one whose content cannot be read) shows the text it was stored with.
 */
export function toNotification(row: NotificationRow, language: Language = "en"): Notification {
  const content = parseMessage(row.content);
  let message = row.message;
  if (content) {
    try {
      message = renderMessage(language, content).toString();
    } catch {
      // A message the catalogs no longer compile: the text it was stored with.
    }
  }
  return {
    notificationid: row.id,
    message,
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
  const languageOf = (userId: number): Language => languageOrDefault(repo.languageOf(userId));

  return {
    list(userId: number): Notification[] {
      const language = languageOf(userId);
      return repo
        .listForUser(userId, NOTIFICATIONS_LIST_CAP)
        .map((row) => toNotification(row, language));
    },

    markRead(userId: number, id: number) {
      if (!repo.findOwned(userId, id)) throw notFound("notification_not_found");
      if (repo.markRead(userId, id) > 0) events.publish(userId, "notification.updated");
      return { success: true as const, message: "Notification marked as read" };
    },

    remove(userId: number, id: number) {
      if (repo.delete(userId, id) === 0) throw notFound("notification_not_found");
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
            : translate("en", "server.notifications.markedRead", { count: updated }),
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
            : translate("en", "server.notifications.deleted", { count: deleted }),
        deleted,
      };
    },

    /**
     * Stores a notification for the user and tells their open browsers. `message` is catalog
     * messages (message.ts: shown in the reader's language whenever it is read) or HTML from the
     * `html` template (values escaped; shown as it is); an unknown level or a plain string is
     * refused. The API's answers above stay English for API clients, like its errors' `error`.
     * `alert` (optional) names the event kind and order: the user's alert channels that chose the
     * event get it too, sent in the background (never delaying this call).
     */
    notify(
      userId: number,
      level: NotificationLevel,
      message: SafeHtml | NotificationMessage,
      alert?: NotificationAlert,
    ): Notification {
      if (!isNotificationLevel(level)) {
        throw new TypeError(
          `Unknown notification level "${String(level)}": use one of ${NOTIFICATION_LEVELS.join(", ")}`,
        );
      }
      const language = languageOf(userId);
      const content = Array.isArray(message) ? (message as NotificationMessage) : null;
      const rendered = content ? renderMessage(language, content) : message;
      if (!(rendered instanceof SafeHtml)) {
        throw new TypeError("A notification message must be built with the html template");
      }
      const text = rendered.toString();
      if (text.trim() === "") throw new TypeError("A notification message cannot be empty");
      if (text.length > NOTIFICATION_MESSAGE_MAX) {
        throw new RangeError(
          `A notification message is limited to ${NOTIFICATION_MESSAGE_MAX} characters`,
        );
      }
      const row = repo.insert({
        userId,
        level,
        message: text,
        content: content ? JSON.stringify(content) : null,
      });
      events.publish(userId, "notification.created");
      if (alert) deps.onAlert?.(userId, toPlainText(rendered), alert);
      return toNotification(row, language);
    },

    /** The user's notifications for GET /api/user/export (all of them, newest first). */
    exportSection(userId: number): { notifications: Notification[] } {
      const language = languageOf(userId);
      return {
        notifications: repo.listForUser(userId).map((row) => toNotification(row, language)),
      };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
