/**
 * What each live event refetches, on a real QueryClient holding the keys the app queries: an event
 * marks its keys stale and leaves every other key fresh.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { QueryClient } from "@tanstack/react-query";
import { LIVE_EVENT_TYPES, type LiveEvent, type LiveEventType } from "../../src/contract/events.ts";
import { EVENT_KEYS, invalidateEverything, invalidateForEvent } from "./live-events-keys.ts";
import {
  adminLogKeys,
  alertKeys,
  configKeys,
  dashboardKeys,
  exactly,
  keyMatches,
  mailboxKeys,
  mediaKeys,
  notificationKeys,
  orderKeys,
  reviewSettingsKeys,
  trackingKeys,
  under,
  userKeys,
  vineKeys,
} from "./query-keys.ts";

/** Every key the app's queries use (one list view and one detail stand for all). */
const APP_KEYS: Record<string, readonly [string]> = {
  ordersList: orderKeys.list({ status: "Shipped", q: "", sort: null, page: 2, size: 25 }),
  orderDetail: orderKeys.detail(42),
  untracked: orderKeys.untracked(),
  counts: dashboardKeys.counts(),
  recent: dashboardKeys.recent(),
  stats: dashboardKeys.stats(),
  standing: vineKeys.standing(),
  vineSettings: vineKeys.settings(),
  userData: userKeys.data(),
  reviewSettings: reviewSettingsKeys.all(),
  alertChannels: alertKeys.all(),
  webpushKey: alertKeys.webpushKey(),
  notifications: notificationKeys.all(),
  trackingPreferences: trackingKeys.preferences(),
  mailboxStatus: mailboxKeys.status(),
  mailboxFolders: mailboxKeys.folders(),
  mailImports: mailboxKeys.imports(),
  mediaToken: mediaKeys.token(),
  config: configKeys.all(),
  adminLogs: adminLogKeys.all(),
};

let client: QueryClient;
let debugged: unknown[][];
beforeEach(() => {
  client = new QueryClient();
  for (const key of Object.values(APP_KEYS)) client.setQueryData(key, { fresh: true });
  debugged = [];
});

const stale = () =>
  Object.entries(APP_KEYS)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();

function after(type: string): string[] {
  const event = { type, table: "user", operation: "UPDATE", timestamp: "t" } as LiveEvent;
  invalidateForEvent(client, event, (...args) => debugged.push(args));
  return stale();
}

const ORDERS = [
  "counts",
  "orderDetail",
  "ordersList",
  "recent",
  "standing",
  "stats",
  "untracked",
].sort();

const EXPECTED: Record<LiveEventType, string[]> = {
  "order.created": ORDERS,
  "order.updated": ORDERS,
  "order.deleted": ORDERS,
  "review.updated": ["orderDetail", "ordersList", "untracked"],
  "notification.created": ["notifications"],
  "notification.updated": ["notifications"],
  "notification.deleted": ["notifications"],
  "alert-channel.created": ["alertChannels"],
  "alert-channel.updated": ["alertChannels"],
  "alert-channel.deleted": ["alertChannels"],
  "alert-channel.delivered": ["alertChannels"],
  "review-settings.updated": ["reviewSettings"],
  "vine-settings.updated": ["standing", "vineSettings"],
  "tracking-preferences.updated": ["trackingPreferences", "userData"],
  "import-mode.updated": ["userData"],
  "mailbox.connected": ["mailboxFolders", "mailboxStatus", "userData"],
  "mailbox.disconnected": ["mailboxFolders", "mailboxStatus", "userData"],
  "mailbox-settings.updated": ["userData"],
  "mail-folders.updated": ["mailboxFolders", "userData"],
  "mailbox.scanned": ["mailboxStatus", "userData"],
  "mailbox.scanning": ["mailboxStatus"],
  "mailbox.status": ["mailboxStatus"],
  "mailbox-attempts.updated": ["mailboxStatus"],
};

describe("each event refetches its keys and no others", () => {
  for (const type of LIVE_EVENT_TYPES) {
    test(type, () => {
      expect(after(type)).toEqual(EXPECTED[type]);
      expect(debugged).toEqual([]);
    });
  }

  test("an alert delivery leaves the orders, the dashboard and the user's data alone", () => {
    expect(after("alert-channel.delivered")).toEqual(["alertChannels"]);
    for (const key of [APP_KEYS.ordersList!, APP_KEYS.counts!, APP_KEYS.userData!]) {
      expect(client.getQueryState(key)?.isInvalidated).toBe(false);
    }
  });

  test("an unknown type refetches nothing and is logged at debug level", () => {
    expect(after("reminder.created")).toEqual([]);
    expect(after("toString")).toEqual([]);
    expect(debugged).toHaveLength(2);
    expect(debugged[0]).toContain("reminder.created");
  });
});

test("every type the server publishes has keys", () => {
  for (const type of LIVE_EVENT_TYPES) expect(EVENT_KEYS[type].length).toBeGreaterThan(0);
});

test("after a drop: every key any event names, and still not the keys no event changes", () => {
  invalidateEverything(client);
  expect(stale()).toEqual(
    Object.keys(APP_KEYS)
      .filter(
        (k) => !["webpushKey", "mailImports", "mediaToken", "config", "adminLogs"].includes(k),
      )
      .sort(),
  );
});

describe("keyMatches", () => {
  test("exactly: the path, with or without a query string, nothing below it", () => {
    const m = exactly(alertKeys.all());
    expect(keyMatches(["/api/user/alert-channels"], m)).toBe(true);
    expect(keyMatches(["/api/user/alert-channels?x=1"], m)).toBe(true);
    expect(keyMatches(["/api/user/alert-channels/webpush-key"], m)).toBe(false);
    expect(keyMatches(["/api/user/alert-channelsx"], m)).toBe(false);
  });

  test("under: the path and everything below it, not a longer name", () => {
    const m = under(orderKeys.all());
    expect(keyMatches(["/api/orders?status=Received"], m)).toBe(true);
    expect(keyMatches(["/api/orders/42"], m)).toBe(true);
    expect(keyMatches(["/api/orders-archive"], m)).toBe(false);
    expect(keyMatches(["/api/dashboard/recent"], m)).toBe(false);
  });

  test("only a string first element is a path", () => {
    expect(keyMatches([{ path: "/api/orders" }], under(orderKeys.all()))).toBe(false);
    expect(keyMatches([], under(orderKeys.all()))).toBe(false);
    expect(keyMatches([42], exactly(userKeys.data()))).toBe(false);
  });
});
