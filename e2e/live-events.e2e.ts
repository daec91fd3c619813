/**
 * Live events (docs/behaviour.md#states-and-transitions, docs/api.md): an open page learns of changes made elsewhere without a reload.
 * The browser keeps one EventSource to /api/events/stream?token=… and refetches what each event
 * type changes (web/lib/live-events-keys.ts).
 */
import type { Page, Request } from "@playwright/test";
import { NotificationsPopover } from "./pages/NotificationsPopover.ts";
import { fakeAlertsUrl } from "./support/alerts.ts";
import { signInWithToken } from "./support/api.ts";
import { test as base, expect } from "./support/fixtures.ts";
import { liveStreamOpened } from "./support/live.ts";
import { announceNotificationChange, insertNotifications } from "./support/notifications.ts";

const test = base.extend<{ notifications: NotificationsPopover }>({
  notifications: async ({ page }, use) => use(new NotificationsPopover(page)),
});

const isStream = (token: string) => (req: Request) =>
  req.url().includes(`/api/events/stream?token=${encodeURIComponent(token)}`);

/** Records every EventSource the page creates (window.__eventSources), from the next load on. */
async function trackEventSources(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.EventSource;
    const list: EventSource[] = [];
    (window as unknown as { __eventSources: EventSource[] }).__eventSources = list;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        list.push(this);
      }
    };
  });
}

/** The EventSources created since the last load: path and whether still open or connecting. */
function eventSources(page: Page): Promise<{ url: string; open: boolean }[]> {
  return page.evaluate(() =>
    ((window as unknown as { __eventSources?: EventSource[] }).__eventSources ?? []).map((es) => ({
      url: es.url.replace(window.location.origin, ""),
      open: es.readyState !== EventSource.CLOSED,
    })),
  );
}

/** Resolves when the page asks for this path again (a refetch), ignoring query strings. */
const refetchOf = (page: Page, path: string) =>
  page.waitForResponse((res) => new URL(res.url()).pathname === path && res.ok());

test.describe("Live events", () => {
  test("the signed-in page keeps one stream open with its token; logout closes it", async ({
    page,
    user,
    shell,
  }) => {
    await trackEventSources(page);
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    expect(await eventSources(page)).toEqual([]);

    const opened = page.waitForRequest(isStream(user.token));
    await page.evaluate((t) => localStorage.setItem("auth-token", t), user.token);
    await page.goto("/");
    await opened;
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect
      .poll(() => eventSources(page))
      .toEqual([{ url: `/api/events/stream?token=${encodeURIComponent(user.token)}`, open: true }]);

    // Moving around the app keeps the same single connection.
    await shell.choose("Account");
    await expect(page).toHaveURL("/account");
    expect(await eventSources(page)).toHaveLength(1);

    await shell.logout();
    await shell.expectSignedOutAtLogin();
    await expect
      .poll(() => eventSources(page))
      .toEqual([{ url: expect.stringContaining("/api/events/stream"), open: false }]);
  });

  test("a notification event refreshes the bell without a reload, and the badge pulses", async ({
    page,
    user,
    request,
    notifications,
  }) => {
    insertNotifications(user.user.userid, [{ message: "First notice" }]);
    const opened = liveStreamOpened(page, user.token);
    await page.goto("/privacy-policy");
    await page.evaluate((t) => localStorage.setItem("auth-token", t), user.token);
    await page.goto("/");
    await opened;
    await notifications.expectUnread(1);
    await expect(notifications.badge).not.toHaveClass(/notif-badge-pulse/);

    insertNotifications(user.user.userid, [{ message: "Second" }, { message: "Third" }]);
    const refetched = refetchOf(page, "/api/notifications");
    await announceNotificationChange(request, user);
    await refetched;
    await notifications.expectUnread(3);
    await expect(notifications.badge).toHaveClass(/notif-badge-pulse/);
    // The pulse ends by itself after 6 s.
    await expect(notifications.badge).not.toHaveClass(/notif-badge-pulse/, { timeout: 8000 });
    await notifications.expectUnread(3);
  });

  test("an order created through the API appears on the open dashboard without a reload", async ({
    page,
    user,
    request,
  }) => {
    const opened = liveStreamOpened(page, user.token);
    await page.goto("/privacy-policy");
    await page.evaluate((t) => localStorage.setItem("auth-token", t), user.token);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await opened;
    const loads: string[] = [];
    page.on("load", () => loads.push(page.url()));

    const productname = `Live Widget ${Date.now()}`;
    const recent = refetchOf(page, "/api/dashboard/recent");
    const counts = refetchOf(page, "/api/dashboard/counts");
    const res = await request.post("/api/orders", {
      headers: { Authorization: `Bearer ${user.token}` },
      data: { productname, asin: "B0LIVE0001" },
    });
    expect(res.status(), await res.text()).toBe(201);
    await Promise.all([recent, counts]);

    await expect(page.getByRole("main").getByText(productname)).toBeVisible();
    expect(loads, "the page was not reloaded").toEqual([]);
  });

  test("after the stream drops, the browser reconnects with backoff and updates resume", async ({
    page,
    user,
    request,
    notifications,
  }) => {
    const attempts: number[] = [];
    // The first two connections fail outright; later ones go through.
    await page.route("**/api/events/stream*", (route) => {
      attempts.push(Date.now());
      return attempts.length <= 2 ? route.abort("connectionreset") : route.continue();
    });
    await page.goto("/privacy-policy");
    await page.evaluate((t) => localStorage.setItem("auth-token", t), user.token);
    await page.goto("/");
    await expect.poll(() => attempts.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const [first, second, third] = attempts as [number, number, number];
    // 1 s then 2 s, each plus 0–1 s of jitter (and some slack for a busy machine).
    expect(second - first).toBeGreaterThanOrEqual(1000);
    expect(second - first).toBeLessThan(3000);
    expect(third - second).toBeGreaterThanOrEqual(2000);
    expect(third - second).toBeLessThan(4000);
    await notifications.expectUnread(0);

    // Events flow again on the new connection.
    insertNotifications(user.user.userid, [{ message: "After the reconnect" }]);
    await expect(async () => {
      await announceNotificationChange(request, user);
      await notifications.expectUnread(1);
    }).toPass({ timeout: 10_000 });
    expect(attempts).toHaveLength(3);
  });

  test("an alert delivery sent from one tab refetches nothing on the orders list open in another", async ({
    page,
    context,
    user,
    request,
  }) => {
    const auth = { Authorization: `Bearer ${user.token}` };
    const productname = `Quiet Lamp ${Date.now()}`;
    const order = await request.post("/api/orders", {
      headers: auth,
      data: { productname, asin: "B0LIVE0002" },
    });
    expect(order.status(), await order.text()).toBe(201);
    const made = await request.post("/api/user/alert-channels", {
      headers: auth,
      data: { type: "ntfy", serverUrl: fakeAlertsUrl(), topic: `e2e-live-${Date.now()}` },
    });
    expect(made.status(), await made.text()).toBe(201);

    // Tab 1: the orders list, with its stream open and done loading: the "shipped, not tracked"
    // part asks for its list once the rest of the list is drawn, after the first cards.
    const opened = liveStreamOpened(page, user.token);
    const untracked = page.waitForResponse(
      (res) => new URL(res.url()).pathname === "/api/orders/untracked",
    );
    await signInWithToken(page, user.token, "/orders");
    await expect(page.getByRole("main").getByText(productname)).toBeVisible();
    await opened;
    await untracked;
    const asked: string[] = [];
    page.on("request", (req) => {
      const p = new URL(req.url()).pathname;
      if (p.startsWith("/api/") && p !== "/api/events/stream") asked.push(p);
    });

    // Tab 2: Account → Alerts, where the user sends a test alert.
    const alerts = await context.newPage();
    await signInWithToken(alerts, user.token, "/account?tab=alerts");
    await alerts.getByRole("button", { name: "Send Test" }).click();
    await expect(alerts.getByRole("status").filter({ hasText: "Test alert sent" })).toBeVisible();

    // Events arrive in order: once tab 1 has refetched the bell for a later event, it has also
    // handled the delivery's, and whatever that refetched was asked for before.
    const bell = refetchOf(page, "/api/notifications");
    await announceNotificationChange(request, user);
    await bell;
    expect(asked).toEqual(["/api/notifications"]);
  });
});
