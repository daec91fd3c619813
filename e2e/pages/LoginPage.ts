/** /login: one screen that signs in ("Welcome back") or creates an account. */
import { expect, type Locator, type Page } from "@playwright/test";
import type { Credentials } from "../support/api.ts";

export class LoginPage {
  readonly signInHeading: Locator;
  readonly registerHeading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly displayname: Locator;
  readonly signInButton: Locator;
  readonly createAccountButton: Locator;
  readonly toRegister: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.signInHeading = main.getByRole("heading", { name: "Welcome back", level: 1 });
    this.registerHeading = main.getByRole("heading", { name: "Create account", level: 1 });
    this.email = main.getByLabel("Email", { exact: true });
    this.password = main.getByLabel("Password", { exact: true });
    this.displayname = main.getByLabel("Display name", { exact: true });
    this.signInButton = main.getByRole("button", { name: "Sign in", exact: true });
    this.createAccountButton = main.getByRole("button", { name: "Create account", exact: true });
    this.toRegister = main.getByRole("button", { name: "Create an account" });
    this.error = main.getByRole("alert");
  }

  async goto(next?: string): Promise<void> {
    await this.page.goto(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
    await expect(this.signInHeading).toBeVisible();
  }

  async signIn(email: string, password: string): Promise<void> {
    await expect(this.signInHeading).toBeVisible();
    await this.email.fill(email);
    await this.password.fill(password);
    await this.signInButton.click();
  }

  async register(creds: Credentials): Promise<void> {
    if (!(await this.registerHeading.isVisible())) await this.toRegister.click();
    await expect(this.registerHeading).toBeVisible();
    await this.email.fill(creds.email);
    await this.password.fill(creds.password);
    await this.displayname.fill(creds.displayname);
    await this.createAccountButton.click();
  }

  async expectError(message: string): Promise<void> {
    await expect(this.error).toHaveText(message);
    await expect(this.signInHeading).toBeVisible();
  }
}
