/** Notifications API (docs/screens.md, docs/behaviour.md#data, docs/api.md): list, read, delete, mark-all-read, delete-all, ownership. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { LiveEvent, Notification, NotificationLevel } from "../../src/contract/index.ts";
import { html } from "../../src/features/notifications/html.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

type Done = { success: true; message: string; updated?: number; deleted?: number };

const notify = (userId: number, text: string, level: NotificationLevel = "information") =>
  h.services.notifications.notify(userId, level, html`<strong>${text}</strong>`);

const list = async (token: string) => {
  const { status, body } = await call<Notification[]>(h, "GET", "/api/notifications", { token });
  expect(status).toBe(200);
  return body;
};

type Row = { id: number; user_id: number; is_read: number; message: string; level: string };
const rows = (userId: number): Row[] =>
  h.db.$client
    .query(
      "SELECT id, user_id, is_read, message, level FROM notifications WHERE user_id = ? ORDER BY id",
    )
    .all(userId) as Row[];

/** Records the bus events of one user while fn runs. */
async function eventsDuring(userId: number, fn: () => Promise<unknown>): Promise<LiveEvent[]> {
  const seen: LiveEvent[] = [];
  const off = h.services.events.subscribe(userId, (e) => seen.push(e));
  try {
    await fn();
  } finally {
    off();
  }
  return seen;
}

describe("authentication", () => {
  const cases: [string, string][] = [
    ["GET", "/api/notifications"],
    ["PUT", "/api/notifications/1/read"],
    ["DELETE", "/api/notifications/1"],
    ["PUT", "/api/notifications/mark-all-read"],
    ["DELETE", "/api/notifications/delete-all"],
  ];
  for (const [method, url] of cases) {
    test(`${method} ${url} needs a token`, async () => {
      expect(await call(h, method, url)).toMatchObject({
        status: 401,
        body: { error: "Access token required" },
      });
      expect(await call(h, method, url, { token: "nope" })).toMatchObject({
        status: 401,
        body: { error: "Invalid token" },
      });
    });
  }
});

describe("GET /api/notifications", () => {
  test("an empty list for a new user, never cached", async () => {
    const u = await h.register();
    const res = await h.req("GET", "/api/notifications", { token: u.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual([]);
  });

  test("the caller's notifications, newest first, in the spec's shape", async () => {
    const a = await h.register();
    const b = await h.register();
    notify(a.userid, "first", "warning");
    notify(b.userid, "someone else's");
    notify(a.userid, "second", "critical");
    const body = await list(a.token);
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual({
      notificationid: expect.any(Number),
      message: "<strong>second</strong>",
      level: "critical",
      isread: false,
      createdate: expect.any(String),
    });
    expect(body[1]?.message).toBe("<strong>first</strong>");
    expect(body[1]?.level).toBe("warning");
    expect(Math.abs(Date.parse(body[0]!.createdate) - Date.now())).toBeLessThan(60_000);
  });

  test("at most 200, the newest", async () => {
    const u = await h.register();
    for (let i = 1; i <= 205; i++) notify(u.userid, `n${i}`);
    const body = await list(u.token);
    expect(body).toHaveLength(200);
    expect(body[0]?.message).toBe("<strong>n205</strong>");
    expect(body[199]?.message).toBe("<strong>n6</strong>");
  });
});

describe("PUT /api/notifications/{id}/read", () => {
  test("marks the caller's notification read and publishes one notification UPDATE", async () => {
    const u = await h.register();
    const n = notify(u.userid, "hello");
    const other = notify(u.userid, "stays unread");
    let res!: Awaited<ReturnType<typeof call<Done>>>;
    const events = await eventsDuring(u.userid, async () => {
      res = await call<Done>(h, "PUT", `/api/notifications/${n.notificationid}/read`, {
        token: u.token,
      });
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Notification marked as read" });
    expect(events.map((e) => [e.table, e.operation])).toEqual([["notification", "UPDATE"]]);
    const body = await list(u.token);
    expect(body.find((x) => x.notificationid === n.notificationid)?.isread).toBe(true);
    expect(body.find((x) => x.notificationid === other.notificationid)?.isread).toBe(false);

    // Again: still a success, nothing changed, nothing published.
    const again = await eventsDuring(u.userid, async () => {
      const r = await call<Done>(h, "PUT", `/api/notifications/${n.notificationid}/read`, {
        token: u.token,
      });
      expect(r.status).toBe(200);
    });
    expect(again).toEqual([]);
  });

  test("another user's notification is a 404 and stays unread", async () => {
    const a = await h.register();
    const b = await h.register();
    const n = notify(a.userid, "private");
    const events = await eventsDuring(a.userid, async () => {
      const { status, body } = await call(h, "PUT", `/api/notifications/${n.notificationid}/read`, {
        token: b.token,
      });
      expect(status).toBe(404);
      expect(body).toEqual({
        error: "Notification not found",
        code: "notification_not_found",
        values: {},
      });
    });
    expect(events).toEqual([]);
    expect(rows(a.userid)[0]?.is_read).toBe(0);
  });

  test("an unknown id is a 404", async () => {
    const u = await h.register();
    expect(await call(h, "PUT", "/api/notifications/999/read", { token: u.token })).toMatchObject({
      status: 404,
      body: { error: "Notification not found" },
    });
  });
});

describe("DELETE /api/notifications/{id}", () => {
  test("deletes the caller's notification and publishes a notification DELETE", async () => {
    const u = await h.register();
    const n = notify(u.userid, "bye");
    const keep = notify(u.userid, "keep");
    const events = await eventsDuring(u.userid, async () => {
      const { status, body } = await call<Done>(
        h,
        "DELETE",
        `/api/notifications/${n.notificationid}`,
        { token: u.token },
      );
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, message: "Notification deleted" });
    });
    expect(events.map((e) => [e.table, e.operation])).toEqual([["notification", "DELETE"]]);
    expect((await list(u.token)).map((x) => x.notificationid)).toEqual([keep.notificationid]);
    // Gone: a second delete is a 404.
    expect(
      (await call(h, "DELETE", `/api/notifications/${n.notificationid}`, { token: u.token }))
        .status,
    ).toBe(404);
  });

  test("another user's notification is a 404 and is not deleted", async () => {
    const a = await h.register();
    const b = await h.register();
    const n = notify(a.userid, "private");
    const { status, body } = await call(h, "DELETE", `/api/notifications/${n.notificationid}`, {
      token: b.token,
    });
    expect(status).toBe(404);
    expect(body).toEqual({
      error: "Notification not found",
      code: "notification_not_found",
      values: {},
    });
    expect(rows(a.userid)).toHaveLength(1);
  });
});

describe("PUT /api/notifications/mark-all-read", () => {
  test("marks only the caller's unread notifications and reports how many", async () => {
    const a = await h.register();
    const b = await h.register();
    notify(a.userid, "a1");
    notify(a.userid, "a2");
    const a3 = notify(a.userid, "a3");
    h.services.notifications.markRead(a.userid, a3.notificationid);
    notify(b.userid, "b1");
    const events = await eventsDuring(a.userid, async () => {
      const { status, body } = await call<Done>(h, "PUT", "/api/notifications/mark-all-read", {
        token: a.token,
      });
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        message: "2 notifications marked as read",
        updated: 2,
      });
    });
    expect(events.map((e) => e.operation)).toEqual(["UPDATE"]);
    expect(rows(a.userid).every((r) => r.is_read === 1)).toBe(true);
    expect(rows(b.userid).map((r) => r.is_read)).toEqual([0]);

    const again = await call<Done>(h, "PUT", "/api/notifications/mark-all-read", {
      token: a.token,
    });
    expect(again.body).toEqual({ success: true, message: "No unread notifications", updated: 0 });
  });
});

describe("DELETE /api/notifications/delete-all", () => {
  test("deletes only the caller's notifications and reports how many", async () => {
    const a = await h.register();
    const b = await h.register();
    notify(a.userid, "a1");
    notify(a.userid, "a2");
    notify(b.userid, "b1");
    const events = await eventsDuring(a.userid, async () => {
      const { status, body } = await call<Done>(h, "DELETE", "/api/notifications/delete-all", {
        token: a.token,
      });
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, message: "2 notifications deleted", deleted: 2 });
    });
    expect(events.map((e) => e.operation)).toEqual(["DELETE"]);
    expect(rows(a.userid)).toEqual([]);
    expect(rows(b.userid)).toHaveLength(1);
    expect(
      (await call<Done>(h, "DELETE", "/api/notifications/delete-all", { token: a.token })).body,
    ).toEqual({ success: true, message: "No notifications to delete", deleted: 0 });
  });
});

describe("ids and paths", () => {
  for (const bad of ["abc", "0", "-1", "1.5", "1e3", "9999999999999999", "%20"]) {
    test(`id "${bad}" is a 400 on read and delete`, async () => {
      const u = await h.register();
      for (const [method, url] of [
        ["PUT", `/api/notifications/${bad}/read`],
        ["DELETE", `/api/notifications/${bad}`],
      ] as const) {
        const { status, body } = await call(h, method, url, { token: u.token });
        expect(status).toBe(400);
        expect(body).toEqual({
          error: "id must be a positive number",
          code: "param_not_positive",
          values: { name: "id" },
        });
      }
    });
  }

  test("fixed paths never reach /{id}; other methods and paths are JSON 404s", async () => {
    const u = await h.register();
    for (const [method, url] of [
      ["GET", "/api/notifications/5"],
      ["POST", "/api/notifications"],
      ["GET", "/api/notifications/mark-all-read"],
      ["PUT", "/api/notifications/delete-all"],
      ["PUT", "/api/notifications/5"],
    ] as const) {
      const { status, body } = await call(h, method, url, { token: u.token });
      expect(status).toBe(404);
      expect(body).toEqual({
        error: `Not found: ${method} ${url}`,
        code: "route_not_found",
        values: { method, path: url },
      });
    }
  });
});

describe("notify()", () => {
  test("stores escaped HTML and publishes a notification INSERT", async () => {
    const u = await h.register();
    const name = "<img src=x onerror=alert(1)>";
    const events = await eventsDuring(u.userid, async () => {
      h.services.notifications.notify(
        u.userid,
        "warning",
        html`Review due: <strong>${name}</strong>`,
      );
    });
    expect(events.map((e) => [e.table, e.operation])).toEqual([["notification", "INSERT"]]);
    const [n] = await list(u.token);
    expect(n?.message).toBe("Review due: <strong>&lt;img src=x onerror=alert(1)&gt;</strong>");
    expect(n?.message).not.toContain("<img");
  });

  test("refuses unknown levels, plain strings and empty messages; stores nothing", async () => {
    const u = await h.register();
    const svc = h.services.notifications;
    expect(() => svc.notify(u.userid, "info" as NotificationLevel, html`x`)).toThrow(
      /Unknown notification level "info"/,
    );
    expect(() => svc.notify(u.userid, "warning", "<b>raw</b>" as never)).toThrow(/html template/);
    expect(() => svc.notify(u.userid, "warning", html`  `)).toThrow(/empty/);
    expect(() => svc.notify(u.userid, "warning", html`${"x".repeat(10_001)}`)).toThrow(/limited/);
    expect(rows(u.userid)).toEqual([]);
    for (const level of ["critical", "warning", "information", "other"] as const) {
      expect(svc.notify(u.userid, level, html`ok`).level).toBe(level);
    }
  });
});

describe("GET /api/user/export", () => {
  test("includes the caller's notifications, and no one else's", async () => {
    const a = await h.register();
    const b = await h.register();
    notify(a.userid, "mine", "critical");
    notify(b.userid, "theirs");
    const res = await h.req("GET", "/api/user/export", { token: a.token });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { notifications: Notification[] };
    expect(doc.notifications).toEqual([
      {
        notificationid: expect.any(Number),
        message: "<strong>mine</strong>",
        level: "critical",
        isread: false,
        createdate: expect.any(String),
      },
    ]);
  });
});
