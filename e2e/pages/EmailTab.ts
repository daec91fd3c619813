/** Account Settings → Email Configuration, and the dashboard's Emails Scanned card. */
import { expect, type Locator, type Page } from "@playwright/test";

export const SOON_PROVIDERS = ["Outlook", "Yahoo", "iCloud", "Other providers"] as const;

export class EmailTab {
  readonly main: Locator;
  readonly tab: Locator;
  readonly panel: Locator;
  readonly providerChooser: Locator;
  readonly gmailOption: Locator;
  readonly connectedBox: Locator;
  readonly expiredWarning: Locator;
  readonly importCard: Locator;
  readonly fileInput: Locator;
  readonly importButton: Locator;
  readonly importSummary: Locator;
  readonly importError: Locator;
  readonly privacyCard: Locator;
  readonly privacyButton: Locator;
  readonly privacyDialog: Locator;
  readonly gmailDialog: GmailDialog;

  constructor(readonly page: Page) {
    this.main = page.getByRole("main");
    this.tab = this.main.getByRole("tab", { name: /Email/ });
    this.panel = this.main.getByRole("tabpanel");
    this.providerChooser = this.panel.getByRole("article", { name: "Connect your email" });
    this.gmailOption = this.providerChooser.getByRole("button", { name: "Gmail", exact: true });
    this.connectedBox = this.panel.getByRole("article", { name: "Email Connection" });
    this.expiredWarning = this.panel.getByRole("alert").filter({
      hasText: "Email Authorization Expired",
    });
    this.importCard = this.panel.getByRole("article", { name: "Import from a file" });
    this.fileInput = this.importCard.getByLabel("Email files (.eml, .mbox)");
    this.importButton = this.importCard.getByRole("button", { name: "Import", exact: true });
    this.importSummary = this.importCard.getByRole("region", { name: "Import summary" });
    this.importError = this.importCard.getByRole("alert");
    this.privacyCard = this.panel.getByRole("article", { name: "Email Privacy" });
    this.privacyButton = this.privacyCard.getByRole("button", { name: "View Privacy Details" });
    this.privacyDialog = page.getByRole("dialog", { name: "Email Access & Privacy Details" });
    this.gmailDialog = new GmailDialog(page);
  }

  /** Opens /account on the Email tab (through the tab, as a user would). */
  async goto(): Promise<void> {
    await this.page.goto("/account");
    await this.tab.click();
    await this.expectSelected();
  }

  async expectSelected(): Promise<void> {
    await expect(this.tab).toHaveAttribute("aria-selected", "true");
    await expect(this.importCard).toBeVisible();
  }

  soonProvider(name: (typeof SOON_PROVIDERS)[number]): Locator {
    return this.providerChooser.getByRole("button", { name: new RegExp(`^${name} Soon$`) });
  }

  async openGmailDialog(): Promise<GmailDialog> {
    await this.gmailOption.click();
    await expect(this.gmailDialog.root).toBeVisible();
    return this.gmailDialog;
  }

  /** Uploads files through the picker and presses Import. */
  async importFiles(files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await this.fileInput.setInputFiles(files);
    await this.importButton.click();
  }

  /** The number shown for a summary line ("Messages read", "Created orders", ...). */
  summaryValue(term: string): Locator {
    return this.importSummary
      .locator("div")
      .filter({ has: this.page.locator("dt", { hasText: term }) })
      .locator("dd");
  }
}

export class GmailDialog {
  readonly root: Locator;
  readonly cancel: Locator;
  readonly continueToGmail: Locator;
  readonly useAppPassword: Locator;
  readonly accessed: Locator;
  readonly neverAccessed: Locator;
  readonly problem: Locator;
  readonly address: Locator;
  readonly appPassword: Locator;
  readonly connect: Locator;
  readonly back: Locator;

  constructor(page: Page) {
    this.root = page.getByRole("dialog", { name: "Connect Gmail" });
    this.cancel = this.root.getByRole("button", { name: "Cancel" });
    this.continueToGmail = this.root.getByRole("button", { name: "Continue to Gmail" });
    this.useAppPassword = this.root.getByRole("button", { name: "Use an app password instead" });
    this.accessed = this.root.getByRole("region", { name: "Accessed", exact: true });
    this.neverAccessed = this.root.getByRole("region", { name: "Never accessed" });
    this.problem = this.root.getByRole("alert");
    this.address = this.root.getByLabel("Gmail address");
    this.appPassword = this.root.getByLabel("App password");
    this.connect = this.root.getByRole("button", { name: "Connect with App Password" });
    this.back = this.root.getByRole("button", { name: "Back" });
  }
}

/** The dashboard's fourth stat card. */
export class EmailsScannedCard {
  readonly stats: Locator;
  readonly root: Locator;
  readonly value: Locator;
  readonly connectLink: Locator;
  /** The offer under the stat cards (its name is its button's label). */
  readonly reconnectOffer: Locator;
  readonly retryOffer: Locator;

  constructor(page: Page) {
    this.stats = page.getByRole("main").getByRole("region", { name: "Statistics" });
    this.reconnectOffer = this.stats.getByRole("region", { name: "Reconnect" });
    this.retryOffer = this.stats.getByRole("region", { name: "Retry real-time monitoring" });
    this.root = this.stats
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: "Emails Scanned" }) });
    this.value = this.root.locator(".stat-value");
    this.connectLink = this.root.getByRole("link", { name: "Connect your mailbox" });
  }
}
