/** The header's notifications bell and its popover: tabs, items, per-item and bulk actions. */
import { expect, type Locator, type Page } from "@playwright/test";

export class NotificationsPopover {
  /** The bell; its accessible name carries the unread count ("Notifications (3 unread)"). */
  readonly bell: Locator;
  /** The badge on the bell (a visual; screen readers get the count from the bell's name). */
  readonly badge: Locator;
  readonly dialog: Locator;
  readonly heading: Locator;
  readonly unreadTab: Locator;
  readonly allTab: Locator;
  readonly panel: Locator;
  readonly items: Locator;
  readonly markAllAsRead: Locator;
  readonly deleteAll: Locator;
  /** "Delete all notifications" asks first. */
  readonly confirmDeleteAll: Locator;
  readonly keepAll: Locator;
  readonly close: Locator;

  constructor(readonly page: Page) {
    this.bell = page.getByRole("banner").getByRole("button", { name: /^Notifications\b/ });
    this.badge = this.bell.locator(".notif-badge");
    this.dialog = page.getByRole("dialog", { name: "Notifications" });
    this.heading = this.dialog.getByRole("heading", { name: "Notifications" });
    this.unreadTab = this.dialog.getByRole("tab", { name: /^Unread \(\d+\)$/ });
    this.allTab = this.dialog.getByRole("tab", { name: /^All \(\d+\)$/ });
    this.panel = this.dialog.getByRole("tabpanel");
    this.items = this.panel.getByRole("listitem");
    this.markAllAsRead = this.dialog.getByRole("button", { name: "Mark all as read", exact: true });
    this.deleteAll = this.dialog.getByRole("button", {
      name: "Delete all notifications",
      exact: true,
    });
    this.confirmDeleteAll = this.dialog.getByRole("button", { name: "Delete all", exact: true });
    this.keepAll = this.dialog.getByRole("button", { name: "Keep them", exact: true });
    this.close = this.dialog.getByRole("button", { name: "Close", exact: true });
  }

  /** The bell shows this many unread: badge text ('99+' above 99) and accessible name. */
  async expectUnread(count: number): Promise<void> {
    if (count === 0) {
      await expect(this.bell).toHaveAccessibleName("Notifications");
      await expect(this.badge).toHaveCount(0);
      return;
    }
    await expect(this.bell).toHaveAccessibleName(`Notifications (${count} unread)`);
    await expect(this.badge).toHaveText(count > 99 ? "99+" : String(count));
  }

  async open(): Promise<void> {
    if (!(await this.dialog.isVisible())) await this.bell.click();
    await expect(this.dialog).toBeVisible();
    await expect(this.heading).toBeVisible();
  }

  async expectClosed(): Promise<void> {
    await expect(this.dialog).toBeHidden();
    await expect(this.bell).toHaveAttribute("aria-expanded", "false");
  }

  async showTab(tab: "Unread" | "All"): Promise<void> {
    const target = tab === "Unread" ? this.unreadTab : this.allTab;
    await target.click();
    await expect(target).toHaveAttribute("aria-selected", "true");
  }

  /** The tabs read 'Unread (u)' and 'All (a)'. */
  async expectCounts(unread: number, all: number): Promise<void> {
    await expect(this.unreadTab).toHaveText(`Unread (${unread})`);
    await expect(this.allTab).toHaveText(`All (${all})`);
  }

  /** The listed item whose message contains this text. */
  item(text: string | RegExp): Locator {
    return this.items.filter({ hasText: text });
  }

  markAsReadButton(text: string | RegExp): Locator {
    return this.item(text).getByRole("button", { name: "Mark as read", exact: true });
  }

  deleteButton(text: string | RegExp): Locator {
    return this.item(text).getByRole("button", { name: "Delete notification", exact: true });
  }

  /** The message of an item, as rendered (sanitised) HTML. */
  message(text: string | RegExp): Locator {
    return this.item(text).locator(".notif-message");
  }
}
