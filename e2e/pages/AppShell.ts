/** What every screen shares: the header with brand and user menu, the footer, and the toasts. */
import { expect, type Locator, type Page } from "@playwright/test";

export class AppShell {
  readonly header: Locator;
  readonly brand: Locator;
  readonly backToDashboard: Locator;
  readonly signInLink: Locator;
  /** The avatar button that opens the user menu. */
  readonly userMenuButton: Locator;
  readonly accountItem: Locator;
  readonly adminLogsItem: Locator;
  readonly vineItem: Locator;
  readonly logoutItem: Locator;
  readonly footer: Locator;
  readonly footerNav: Locator;
  readonly privacyPolicyLink: Locator;
  readonly notifications: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole("banner");
    this.brand = this.header.getByRole("link", { name: "Grapevine", exact: true });
    this.backToDashboard = this.header.getByRole("link", { name: "Back to dashboard" });
    this.signInLink = this.header.getByRole("link", { name: "Sign in" });
    this.userMenuButton = this.header.getByLabel("User menu");
    this.accountItem = this.header.getByRole("link", { name: "Account", exact: true });
    this.adminLogsItem = this.header.getByRole("link", { name: "Admin Logs" });
    this.vineItem = this.header.getByRole("link", { name: "Vine", exact: true });
    this.logoutItem = this.header.getByRole("link", { name: "Logout" });
    this.footer = page.getByRole("contentinfo");
    this.footerNav = this.footer.getByRole("navigation", { name: "Footer" });
    this.privacyPolicyLink = this.footerNav.getByRole("link", { name: "Privacy Policy" });
    this.notifications = page.getByRole("region", { name: "Notifications" });
  }

  /** Opens the user menu (a disclosure) unless it is open already. */
  async openUserMenu(): Promise<void> {
    await expect(this.userMenuButton).toBeVisible();
    if (!(await this.logoutItem.isVisible())) await this.userMenuButton.click();
    await expect(this.logoutItem).toBeVisible();
  }

  /**
   * Closes the user menu by clicking its button again. While it is open, a click anywhere else
   * only closes it (it does not reach what was clicked), as for a user.
   */
  async closeUserMenu(): Promise<void> {
    if (await this.logoutItem.isVisible()) await this.userMenuButton.click();
    await expect(this.logoutItem).toBeHidden();
  }

  /** The user menu names the signed-in user: display name and email. Leaves the menu closed. */
  async expectUserMenuShows(displayname: string, email: string): Promise<void> {
    await this.openUserMenu();
    await expect(this.header.getByText(displayname, { exact: true })).toBeVisible();
    await expect(this.header.getByText(email, { exact: true })).toBeVisible();
    await this.closeUserMenu();
  }

  /** Opens the user menu and picks an item in it. */
  async choose(item: "Account" | "Admin Logs" | "Logout" | "Vine"): Promise<void> {
    await this.openUserMenu();
    const target = {
      Account: this.accountItem,
      "Admin Logs": this.adminLogsItem,
      Logout: this.logoutItem,
      Vine: this.vineItem,
    }[item];
    await target.click();
    await expect(this.logoutItem).toBeHidden();
  }

  async logout(): Promise<void> {
    await this.choose("Logout");
  }

  /** A toast with this title (one toast is shown at a time). */
  toast(title: string | RegExp): Locator {
    return this.notifications.getByRole("status").filter({ hasText: title });
  }

  async expectToast(title: string | RegExp): Promise<void> {
    await expect(this.toast(title)).toBeVisible();
  }

  async expectSignedOutAtLogin(): Promise<void> {
    await expect(this.page).toHaveURL(/\/login(\?|$)/);
    await expect(this.page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    await expect(this.userMenuButton).toHaveCount(0);
  }

  /** No horizontal scrolling: the page is no wider than the window. */
  async expectNoHorizontalScroll(): Promise<void> {
    const { scrollWidth, innerWidth } = await this.page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, "page width vs. window width").toBeLessThanOrEqual(innerWidth);
  }
}
