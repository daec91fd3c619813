/**
 * Live events by resource (src/contract/events.ts): each action through the API publishes the
 * event named for what it changed, once, to the acting user only. The mailbox's events need a
 * Dovecot and are checked in test/api/imap.test.ts and test/imap-supervisor.test.ts.
 */

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { DEFAULT_REVIEW_SETTINGS } from "../../src/contract/constants.ts";
import type { AlertChannel, LiveEvent, LiveEventType } from "../../src/contract/index.ts";
import { html } from "../../src/features/notifications/html.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type FakeAlerts, startFakeAlerts } from "../support/fake-alerts.ts";
import { png } from "../support/media-files.ts";
import { call } from "./helpers.ts";

let fake: FakeAlerts;
let h: Harness;
beforeAll(() => {
  fake = startFakeAlerts();
  // The ntfy fake listens on 127.0.0.1, refused without this (security-audit-2.test.ts).
  h = createHarness({ ALERTS_ALLOW_LOOPBACK: "true" });
});
afterAll(async () => {
  await h.close();
  fake.stop();
});
afterEach(() => {
  fake.requests.length = 0;
});

type User = { token: string; userid: number };

/** The events `action` publishes to `user` and to a bystander, as types. */
async function during(user: User, action: () => Promise<unknown> | unknown) {
  const bystander = await h.register();
  const mine: LiveEvent[] = [];
  const theirs: LiveEvent[] = [];
  const offs = [
    h.services.events.subscribe(user.userid, (e) => mine.push(e)),
    h.services.events.subscribe(bystander.userid, (e) => theirs.push(e)),
  ];
  try {
    await action();
  } finally {
    for (const off of offs) off();
  }
  expect(theirs).toEqual([]);
  return mine.map((e) => e.type);
}

async function ok(method: string, url: string, user: User, body?: unknown, raw?: FormData) {
  const res = await call(h, method, url, { token: user.token, body, raw });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as unknown;
}

const newOrder = async (u: User) =>
  (await ok("POST", "/api/orders", u, { productname: "Desk lamp", asin: "B000LAMP01" })) as {
    orderid: number;
  };

describe("orders and reviews", () => {
  test("create, update, delete: order.created, order.updated, order.deleted", async () => {
    const u = await h.register();
    let id = 0;
    expect(await during(u, async () => (id = (await newOrder(u)).orderid))).toEqual([
      "order.created",
    ]);
    expect(
      await during(u, () => ok("PUT", `/api/orders/${id}`, u, { reviewtext: "Bright." })),
    ).toEqual(["order.updated"]);
    expect(await during(u, () => ok("DELETE", `/api/orders/${id}`, u))).toEqual(["order.deleted"]);
  });

  test("a review photo: review.updated, not order.updated", async () => {
    const u = await h.register();
    const { orderid } = await newOrder(u);
    const fd = new FormData();
    fd.append("images", new File([png()], "lamp.png", { type: "image/png" }));
    expect(
      await during(u, () => ok("POST", `/api/orders/${orderid}/review/images`, u, undefined, fd)),
    ).toEqual(["review.updated"]);
  });

  test("a refused change publishes nothing", async () => {
    const u = await h.register();
    const res = await during(u, () =>
      call(h, "POST", "/api/orders", { token: u.token, body: { asin: "B0X" } }),
    );
    expect(res).toEqual([]);
  });
});

describe("notifications", () => {
  test("new, read, deleted: notification.created, .updated, .deleted", async () => {
    const u = await h.register();
    let id = 0;
    expect(
      await during(u, () => {
        id = h.services.notifications.notify(u.userid, "information", html`Hello`).notificationid;
      }),
    ).toEqual(["notification.created"]);
    expect(await during(u, () => ok("PUT", `/api/notifications/${id}/read`, u))).toEqual([
      "notification.updated",
    ]);
    expect(await during(u, () => ok("DELETE", `/api/notifications/${id}`, u))).toEqual([
      "notification.deleted",
    ]);
  });
});

describe("settings", () => {
  const cases: [string, string, string, unknown, LiveEventType][] = [
    [
      "review settings",
      "PUT",
      "/api/user/review-settings",
      { ...DEFAULT_REVIEW_SETTINGS, targetWordCount: 200 },
      "review-settings.updated",
    ],
    ["Vine settings", "PUT", "/api/user/vine-settings", { tier: "Gold" }, "vine-settings.updated"],
    [
      "tracking preferences",
      "POST",
      "/api/tracking/preferences",
      { timezone: "Europe/Berlin", updateTime: "07:30" },
      "tracking-preferences.updated",
    ],
    [
      "the import mode",
      "PUT",
      "/api/imap/import-mode",
      { importMode: "all" },
      "import-mode.updated",
    ],
  ];
  for (const [what, method, url, body, type] of cases) {
    test(`${what}: ${type}`, async () => {
      const u = await h.register();
      expect(await during(u, () => ok(method, url, u, body))).toEqual([type]);
    });
  }
});

describe("alert channels", () => {
  test("add, change, test, delete: alert-channel.created, .updated, .delivered, .deleted", async () => {
    const u = await h.register();
    let ch: AlertChannel | undefined;
    const add = { type: "ntfy", serverUrl: fake.url, topic: "grapevine-events" };
    expect(
      await during(u, async () => {
        ch = (await ok("POST", "/api/user/alert-channels", u, add)) as AlertChannel;
      }),
    ).toEqual(["alert-channel.created"]);
    const url = `/api/user/alert-channels/${ch!.id}`;
    expect(await during(u, () => ok("PUT", url, u, { name: "Phone" }))).toEqual([
      "alert-channel.updated",
    ]);
    expect(await during(u, () => ok("POST", `${url}/test`, u))).toEqual([
      "alert-channel.delivered",
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(await during(u, () => ok("DELETE", url, u))).toEqual(["alert-channel.deleted"]);
  });

  test("an alert sent by the sender loop: alert-channel.delivered, nothing about orders or the user", async () => {
    const u = await h.register();
    await ok("POST", "/api/user/alert-channels", u, {
      type: "ntfy",
      serverUrl: fake.url,
      topic: "grapevine-loop",
      events: ["shipped"],
    });
    h.services.alerts.start();
    const types = await during(u, async () => {
      h.services.notifications.notify(u.userid, "information", html`Shipped`, {
        event: "shipped",
      });
      await fake.received(1);
      await h.services.alerts.idle();
    });
    expect(types).toEqual(["notification.created", "alert-channel.delivered"]);
  });
});
