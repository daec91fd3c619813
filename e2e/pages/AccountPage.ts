/** /account: Account Settings with the Profile tab (profile, password, export and deletion). */
import { expect, type Locator, type Page } from "@playwright/test";

export class AccountPage {
  readonly heading: Locator;
  readonly tabs: Locator;
  readonly profileTab: Locator;
  readonly displayname: Locator;
  readonly email: Locator;
  readonly updateProfileButton: Locator;
  readonly changePasswordButton: Locator;
  readonly exportButton: Locator;
  readonly deleteAccountButton: Locator;
  readonly passwordDialog: PasswordDialog;
  readonly deleteDialog: DeleteAccountDialog;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.heading = main.getByRole("heading", { name: "Account Settings", level: 1 });
    this.tabs = main.getByRole("tablist", { name: "Account sections" });
    this.profileTab = this.tabs.getByRole("tab").first();
    const panel = main.getByRole("tabpanel");
    this.displayname = panel.getByLabel("Display name", { exact: true });
    this.email = panel.getByLabel("Email", { exact: true });
    this.updateProfileButton = panel.getByRole("button", { name: "Update Profile" });
    this.changePasswordButton = panel.getByRole("button", { name: "Change Password" });
    this.exportButton = panel.getByRole("button", { name: "Export my data" });
    this.deleteAccountButton = panel.getByRole("button", { name: "Delete account" });
    this.passwordDialog = new PasswordDialog(page);
    this.deleteDialog = new DeleteAccountDialog(page);
  }

  async goto(): Promise<void> {
    await this.page.goto("/account");
    await this.expectLoaded();
  }

  /** The profile form is filled from the user's data once it arrives. */
  async expectLoaded(): Promise<void> {
    await expect(this.heading).toBeVisible();
    await expect(this.email).not.toHaveValue("");
  }

  async updateDisplayname(name: string): Promise<void> {
    await this.displayname.fill(name);
    await this.updateProfileButton.click();
  }

  async openPasswordDialog(): Promise<PasswordDialog> {
    await this.changePasswordButton.click();
    await expect(this.passwordDialog.root).toBeVisible();
    return this.passwordDialog;
  }

  async openDeleteDialog(): Promise<DeleteAccountDialog> {
    await this.deleteAccountButton.click();
    await expect(this.deleteDialog.root).toBeVisible();
    return this.deleteDialog;
  }
}

export class PasswordDialog {
  readonly root: Locator;
  readonly current: Locator;
  readonly next: Locator;
  readonly confirm: Locator;
  readonly submit: Locator;
  readonly cancel: Locator;
  readonly error: Locator;

  constructor(page: Page) {
    this.root = page.getByRole("dialog", { name: "Change Password" });
    this.current = this.root.getByLabel("Current password", { exact: true });
    this.next = this.root.getByLabel("New password", { exact: true });
    this.confirm = this.root.getByLabel("Confirm new password", { exact: true });
    this.submit = this.root.getByRole("button", { name: "Change Password" });
    this.cancel = this.root.getByRole("button", { name: "Cancel" });
    this.error = this.root.getByRole("alert");
  }

  async change(current: string, next: string, confirm = next): Promise<void> {
    await this.current.fill(current);
    await this.next.fill(next);
    await this.confirm.fill(confirm);
    await this.submit.click();
  }
}

export class DeleteAccountDialog {
  readonly root: Locator;
  readonly password: Locator;
  readonly confirm: Locator;
  readonly cancel: Locator;

  constructor(page: Page) {
    this.root = page.getByRole("dialog", { name: "Delete account" });
    this.password = this.root.getByLabel("Password", { exact: true });
    this.confirm = this.root.getByRole("button", { name: "Delete my account" });
    this.cancel = this.root.getByRole("button", { name: "Cancel" });
  }

  async deleteWith(password: string): Promise<void> {
    await this.password.fill(password);
    await this.confirm.click();
  }
}
