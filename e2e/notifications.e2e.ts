/**
 * The notifications bell and popover (docs/screens.md): badge and '99+', tabs with counts, empty states,
 * per-item and bulk actions, level styling, sanitised HTML, closing, and failure toasts.
 * Notifications are stored behind the server's back (e2e/support/notifications.ts), so each test
 * opens the page after storing them.
 */
import { NotificationsPopover } from "./pages/NotificationsPopover.ts";
import { test as base, expect } from "./support/fixtures.ts";
import {
  insertManyNotifications,
  insertNotifications,
  listNotificationsApi,
} from "./support/notifications.ts";

const test = base.extend<{ notifications: NotificationsPopover }>({
  notifications: async ({ page }, use) => use(new NotificationsPopover(page)),
});

test.describe("Notifications", () => {
  test("no notifications: no badge, 'All caught up!' and 'No notifications yet'", async ({
    signedInUser: _,
    notifications,
  }) => {
    await notifications.expectUnread(0);
    await notifications.open();
    await notifications.expectCounts(0, 0);
    await expect(notifications.unreadTab).toHaveAttribute("aria-selected", "true");
    await expect(notifications.panel.getByText("All caught up!")).toBeVisible();
    await expect(notifications.panel.getByText("No unread notifications")).toBeVisible();
    await expect(notifications.markAllAsRead).toHaveCount(0);

    await notifications.showTab("All");
    await expect(notifications.panel.getByText("No notifications yet")).toBeVisible();
    await expect(notifications.items).toHaveCount(0);

    await notifications.close.click();
    await notifications.expectClosed();
    await expect(notifications.bell).toBeFocused();
  });

  test("the badge counts unread notifications and shows '99+' above 99", async ({
    page,
    user,
    signedInUser: _,
    notifications,
  }) => {
    insertManyNotifications(user.user.userid, 99);
    await page.reload();
    await notifications.expectUnread(99);

    insertManyNotifications(user.user.userid, 1, "Hundredth");
    await page.reload();
    await notifications.expectUnread(100);
    await expect(notifications.badge).toHaveText("99+");

    await notifications.open();
    await notifications.expectCounts(100, 100);
    await expect(notifications.items).toHaveCount(100);
    // Newest first.
    await expect(notifications.items.first()).toContainText("Hundredth #1");

    await notifications.markAllAsRead.click();
    await notifications.expectUnread(0);
    await notifications.expectCounts(0, 100);
  });

  test("tabs, level styling, mark one read, delete one, mark all read, delete all", async ({
    page,
    user,
    request,
    signedInUser: _,
    notifications,
  }) => {
    insertNotifications(user.user.userid, [
      { message: "Old news, already read", level: "information", isread: true },
      { message: "Review due soon for <strong>Widget</strong>", level: "warning" },
      { message: "Review overdue for <strong>Gadget</strong>", level: "critical" },
      { message: "Something else happened", level: "other" },
    ]);
    await page.reload();
    await notifications.expectUnread(3);
    await notifications.open();
    await notifications.expectCounts(3, 4);

    // Unread tab (the default): the three unread, newest first, with their relative time.
    await expect(notifications.items).toHaveCount(3);
    await expect(notifications.items.nth(0)).toContainText("Something else happened");
    await expect(notifications.items.nth(1)).toContainText("Review overdue for Gadget");
    await expect(notifications.items.nth(2)).toContainText("Review due soon for Widget");
    await expect(notifications.item("Gadget").getByText("Just now")).toBeVisible();
    await expect(notifications.message("Gadget").locator("strong")).toHaveText("Gadget");
    await expect(notifications.item("Gadget")).toHaveClass(/notif-level-critical/);
    await expect(notifications.item("Widget")).toHaveClass(/notif-level-warning/);
    await expect(notifications.item("Something else")).toHaveClass(/notif-level-default/);

    // All tab: the read one too, without 'Mark as read'.
    await notifications.showTab("All");
    await expect(notifications.items).toHaveCount(4);
    await expect(notifications.item("Old news")).toHaveClass(/notif-level-information/);
    await expect(notifications.markAsReadButton("Old news")).toHaveCount(0);
    await expect(notifications.deleteButton("Old news")).toBeVisible();

    // Mark one as read.
    await notifications.showTab("Unread");
    await notifications.markAsReadButton("Gadget").click();
    await notifications.expectCounts(2, 4);
    await expect(notifications.item("Gadget")).toHaveCount(0);
    await notifications.expectUnread(2);

    // Delete one (an unread one).
    await notifications.deleteButton("Widget").click();
    await notifications.expectCounts(1, 3);
    await notifications.expectUnread(1);

    // Mark all as read: the button goes, the Unread tab is empty.
    await notifications.markAllAsRead.click();
    await notifications.expectCounts(0, 3);
    await expect(notifications.markAllAsRead).toHaveCount(0);
    await expect(notifications.panel.getByText("All caught up!")).toBeVisible();
    await notifications.expectUnread(0);

    // Delete all: asked first; "Keep them" keeps them.
    await notifications.showTab("All");
    await notifications.deleteAll.click();
    await expect(notifications.dialog).toContainText("Delete all 3 notifications?");
    await notifications.keepAll.click();
    await expect(notifications.confirmDeleteAll).toHaveCount(0);
    await notifications.expectCounts(0, 3);
    expect(await listNotificationsApi(request, user.token)).toHaveLength(3);
    await notifications.deleteAll.click();
    await notifications.confirmDeleteAll.click();
    await notifications.expectCounts(0, 0);
    await expect(notifications.panel.getByText("No notifications yet")).toBeVisible();
    await expect(notifications.deleteAll).toBeDisabled();

    // The server agrees.
    expect(await listNotificationsApi(request, user.token)).toEqual([]);
    await page.reload();
    await notifications.open();
    await notifications.expectCounts(0, 0);
  });

  test("messages are sanitised: no <img onerror>, no script, safe links only", async ({
    page,
    user,
    signedInUser: _,
    notifications,
  }) => {
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    insertNotifications(user.user.userid, [
      {
        message: [
          'Hostile <img src=x onerror="window.__xss = 1; alert(1)">',
          "<script>window.__xss = 2</script>",
          '<b onclick="window.__xss = 3">bold</b>',
          '<a href="javascript:window.__xss = 4">js link</a>',
          '<a href="https://example.com/help" target="_self">external</a>',
          '<a href="/account">your account</a>',
          '<iframe src="/"></iframe><style>body{display:none}</style>',
        ].join(" "),
      },
    ]);
    await page.reload();
    await notifications.open();
    const message = notifications.message("Hostile");
    await expect(message).toBeVisible();

    await expect(message.locator("img, script, iframe, style")).toHaveCount(0);
    await expect(message.locator("[onerror], [onclick]")).toHaveCount(0);
    await expect(message.locator("b")).toHaveText("bold");
    await message.locator("b").click();
    await expect(message.getByText("js link")).not.toHaveAttribute("href", /.*/);
    const external = message.getByRole("link", { name: "external" });
    await expect(external).toHaveAttribute("href", "https://example.com/help");
    await expect(external).toHaveAttribute("target", "_blank");
    await expect(external).toHaveAttribute("rel", /noopener/);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);

    // An internal link is followed in the app (no page load) and closes the popover.
    await page.evaluate(() => {
      (window as { __samePage?: boolean }).__samePage = true;
    });
    await message.getByRole("link", { name: "your account" }).click();
    await expect(page).toHaveURL("/account");
    await notifications.expectClosed();
    expect(await page.evaluate(() => (window as { __samePage?: boolean }).__samePage)).toBe(true);
  });

  test("the popover closes on Escape and on a click outside", async ({
    page,
    user,
    signedInUser: _,
    notifications,
  }) => {
    insertNotifications(user.user.userid, [{ message: "Close me" }]);
    await page.reload();
    await notifications.open();
    await page.keyboard.press("Escape");
    await notifications.expectClosed();
    await expect(notifications.bell).toBeFocused();

    await notifications.open();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).click();
    await notifications.expectClosed();

    // The bell toggles it too.
    await notifications.open();
    await notifications.bell.click();
    await notifications.expectClosed();
  });

  test("a failed action shows an error toast and leaves the list as it was", async ({
    page,
    user,
    shell,
    signedInUser: _,
    notifications,
  }) => {
    insertNotifications(user.user.userid, [{ message: "Stubborn notice" }]);
    await page.reload();
    await page.route("**/api/notifications/*/read", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: "Something went wrong on the server." }),
      }),
    );
    await page.route("**/api/notifications/delete-all", (route) =>
      route.fulfill({ status: 503, body: "" }),
    );
    await notifications.open();
    await notifications.markAsReadButton("Stubborn").click();
    await shell.expectToast("Failed to mark notification as read");
    await expect(shell.toast("Failed to mark notification as read")).toContainText(
      "Something went wrong on the server.",
    );
    await notifications.expectCounts(1, 1);
    await notifications.expectUnread(1);

    // Dismissing the toast does not close the popover.
    await shell
      .toast(/Failed/)
      .getByRole("button", { name: "Close" })
      .click();
    await expect(notifications.dialog).toBeVisible();

    await notifications.deleteAll.click();
    await notifications.confirmDeleteAll.click();
    await shell.expectToast("Failed to delete notifications");
    await notifications.expectCounts(1, 1);
  });
});
