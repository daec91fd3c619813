/**
 * What each live event makes stale (docs/api.md#live-events): one table from event type to the
 * keys of the query-key factories (web/lib/query-keys.ts). An event refetches only what its
 * change can alter on screen; an alert delivery, say, refetches the alert channels and nothing
 * else. Queries not on screen are only marked stale (React Query refetches active ones).
 */
import type { LiveEvent, LiveEventType } from "../../src/contract/events.ts";
import {
  alertKeys,
  dashboardKeys,
  exactly,
  type KeyMatch,
  keyMatches,
  mailboxKeys,
  notificationKeys,
  orderKeys,
  reviewSettingsKeys,
  trackingKeys,
  under,
  userKeys,
  vineKeys,
} from "./query-keys.ts";

/** Orders feed the lists, the details, every dashboard figure and the Vine standing. */
const ORDERS: readonly KeyMatch[] = [
  under(orderKeys.all()),
  under(dashboardKeys.all()),
  exactly(vineKeys.standing()),
];
const NOTIFICATIONS = [exactly(notificationKeys.all())];
const ALERT_CHANNELS = [exactly(alertKeys.all())];
/** The user data carries the mailbox's settings; status and folders exist while it is connected. */
const MAILBOX_ACCOUNT = [
  exactly(userKeys.data()),
  exactly(mailboxKeys.status()),
  exactly(mailboxKeys.folders()),
];
const MAILBOX_STATUS = [exactly(mailboxKeys.status())];

export const EVENT_KEYS: Readonly<Record<LiveEventType, readonly KeyMatch[]>> = {
  "order.created": ORDERS,
  "order.updated": ORDERS,
  "order.deleted": ORDERS,
  // Photos and videos show on the order only: no count, figure or standing depends on them.
  "review.updated": [under(orderKeys.all())],
  "notification.created": NOTIFICATIONS,
  "notification.updated": NOTIFICATIONS,
  "notification.deleted": NOTIFICATIONS,
  "alert-channel.created": ALERT_CHANNELS,
  "alert-channel.updated": ALERT_CHANNELS,
  "alert-channel.deleted": ALERT_CHANNELS,
  "alert-channel.delivered": ALERT_CHANNELS,
  "review-settings.updated": [exactly(reviewSettingsKeys.all())],
  // The evaluation period and the rates decide the standing.
  "vine-settings.updated": [exactly(vineKeys.settings()), exactly(vineKeys.standing())],
  // The tracking zone is the user's display zone, which the user data carries.
  "tracking-preferences.updated": [exactly(trackingKeys.preferences()), exactly(userKeys.data())],
  "import-mode.updated": [exactly(userKeys.data())],
  "mailbox.connected": MAILBOX_ACCOUNT,
  "mailbox.disconnected": MAILBOX_ACCOUNT,
  "mailbox-settings.updated": [exactly(userKeys.data())],
  "mail-folders.updated": [exactly(mailboxKeys.folders()), exactly(userKeys.data())],
  // emailsscanned and lastprocessedtime: in the user data and in the status.
  "mailbox.scanned": [exactly(userKeys.data()), exactly(mailboxKeys.status())],
  "mailbox.scanning": MAILBOX_STATUS,
  "mailbox.status": MAILBOX_STATUS,
  "mailbox-attempts.updated": MAILBOX_STATUS,
};

/** Every key of the table once: what to refetch when events may have been missed. */
export const ALL_EVENT_KEYS: readonly KeyMatch[] = [
  ...new Map(
    Object.values(EVENT_KEYS)
      .flat()
      .map((m) => [`${m.path} ${m.below}`, m]),
  ).values(),
];

/** The part of a QueryClient this module uses. */
export type InvalidatingClient = {
  invalidateQueries(filters: {
    predicate: (query: { queryKey: readonly unknown[] }) => boolean;
  }): unknown;
};

export function invalidateKeys(client: InvalidatingClient, matches: readonly KeyMatch[]): void {
  if (matches.length === 0) return;
  void client.invalidateQueries({
    predicate: (q) => matches.some((m) => keyMatches(q.queryKey, m)),
  });
}

/** After the stream was down, or a change too wide to name (a mail import): refetch it all. */
export const invalidateEverything = (client: InvalidatingClient) =>
  invalidateKeys(client, ALL_EVENT_KEYS);

/** Refetches what the event changed; an unknown type is only logged (console.debug). */
export function invalidateForEvent(
  client: InvalidatingClient,
  event: LiveEvent,
  debug: (...args: unknown[]) => void = (...args) => console.debug(...args),
): void {
  const matches = Object.hasOwn(EVENT_KEYS, event.type) ? EVENT_KEYS[event.type] : undefined;
  if (!matches) {
    debug("live events: unknown event", event.type, event);
    return;
  }
  invalidateKeys(client, matches);
}
