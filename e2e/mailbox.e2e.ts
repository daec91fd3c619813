/**
 * The mailbox screens: Account Settings → Email Configuration (provider chooser, Gmail explainer,
 * OAuth not configured, app-password refusal, file import, privacy details, the return from
 * Google's authorization) and the dashboard's Emails Scanned card.
 *
 * The e2e server has no Gmail to talk to: the app-password login is really attempted and refused
 * by the server. A real mailbox (Dovecot) is connected end to end in mailbox-dovecot.e2e.ts. The
 * last describe checks the connected-mailbox screens in states a live server cannot be put into
 * on demand (a fixed "last processed" time, a disconnected mailbox with its reconnect allowance,
 * an expired authorization, a save held open to see "Saving..."), with the mailbox's own calls
 * answered by the test in the API's shapes (src/contract/mailbox.ts, page.route). Timers run on
 * Playwright's clock: the 5 s opening of Process Old Emails is fast-forwarded, not waited out.
 */
import type { Page, Route } from "@playwright/test";
import type { MailboxStatus, MailFolder } from "../src/contract/mailbox.ts";
import type { UserData } from "../src/contract/user.ts";
import { amazonMail } from "../test/api/mail-messages.ts";
import { DashboardPage } from "./pages/DashboardPage.ts";
import { EmailsScannedCard, EmailTab, SOON_PROVIDERS } from "./pages/EmailTab.ts";
import { signInWithToken } from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";
import { orderNumber } from "./support/orders.ts";

test.describe("Email Configuration without a mailbox", () => {
  test("the tab comes after Profile, Reviews and Tracking (Alerts, beyond the spec, last); the provider chooser offers Gmail and four 'Soon' providers", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const email = new EmailTab(page);
    await page.goto("/account");
    const tabs = page.getByRole("tablist", { name: "Account sections" }).getByRole("tab");
    // docs/screens.md: Profile Information (default), Review Settings, Shipment Tracking, Email
    // Configuration; then Alerts.
    await expect(tabs).toHaveCount(5);
    await expect(tabs.nth(0)).toHaveAccessibleName(/Profile/);
    await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
    await expect(tabs.nth(1)).toHaveText("Review SettingsReviews");
    await expect(tabs.nth(2)).toHaveText("Shipment TrackingTracking");
    await expect(tabs.nth(3)).toHaveText("Email ConfigurationEmail");
    await expect(tabs.nth(4)).toHaveText("AlertsAlerts");
    await email.tab.click();
    await email.expectSelected();

    await expect(email.gmailOption).toBeEnabled();
    await expect(email.connectedBox).toHaveCount(0);
    await expect(email.expiredWarning).toHaveCount(0);
    await expect(email.panel.getByText("Process Old Emails")).toHaveCount(0);
    await expect(email.panel.getByText("Email Folder Settings")).toHaveCount(0);

    for (const provider of SOON_PROVIDERS) {
      const option = email.soonProvider(provider);
      await expect(option).toHaveAttribute("aria-disabled", "true");
      // aria-disabled: looks disabled, yet a click still explains why (the toast).
      await option.click({ force: true });
      const toast = shell.toast("Coming Soon");
      await expect(toast).toBeVisible();
      await expect(toast).toContainText(
        `${provider} integration will be available in a future update.`,
      );
      await expect(email.gmailDialog.root).toBeHidden();
    }
  });

  test("with Gmail sign-in set up, Gmail opens the explainer: broad permissions, what is and is never accessed, Cancel", async ({
    page,
    signedInUser: _user,
  }) => {
    // This server has no Google client; the answer of GET /api/config is the one of a server
    // that has one (only the offer is looked at here: the sign-in itself is in test/api/oauth).
    await page.route("**/api/config", async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), gmailOAuth: true } });
    });
    const email = new EmailTab(page);
    await email.goto();
    const dialog = await email.openGmailDialog();
    await expect(dialog.root).toContainText("very broad permissions");
    await expect(dialog.root).toContainText("IMAP");
    await expect(dialog.accessed.getByRole("listitem")).toHaveText([
      "Only emails from Amazon's domains",
      "Only the folder you choose to monitor",
      "Email headers and content, to extract your order details",
      "Read status (to mark processed emails as read, if you choose)",
    ]);
    await expect(dialog.neverAccessed.getByRole("listitem")).toHaveText([
      "Personal, work and financial emails",
      "Any email that is not from Amazon",
    ]);
    await expect(dialog.continueToGmail).toBeVisible();
    await expect(dialog.useAppPassword).toBeVisible();
    await dialog.useAppPassword.click();
    await dialog.back.click();
    await expect(dialog.continueToGmail).toBeVisible();
    await dialog.cancel.click();
    await expect(dialog.root).toBeHidden();
  });

  test("without Gmail sign-in set up, only the app-password way is offered; only the admin is told how to enable it", async ({
    page,
    signedInUser: _user,
    admin,
  }) => {
    const email = new EmailTab(page);
    await email.goto();
    const dialog = await email.openGmailDialog();
    await expect(dialog.appPassword).toBeVisible();
    await expect(dialog.continueToGmail).toHaveCount(0);
    await expect(dialog.useAppPassword).toHaveCount(0);
    await expect(dialog.root).not.toContainText("GOOGLE_CLIENT_ID");
    await dialog.cancel.click();
    await expect(dialog.root).toBeHidden();

    await signInWithToken(page, admin.token, "/account?tab=email");
    await email.expectSelected();
    await email.openGmailDialog();
    await expect(dialog.appPassword).toBeVisible();
    await expect(dialog.continueToGmail).toHaveCount(0);
    // One line, not a failure: no toast, no alert.
    await expect(dialog.root).toContainText(
      "Administrator: to offer Gmail sign-in with Google as well, set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and PUBLIC_URL",
    );
    await expect(dialog.problem).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "Connection Failed" })).toHaveCount(0);
  });

  test("the app-password way: a how-to, and the server's refusal shown in the form", async ({
    page,
    signedInUser: _user,
  }) => {
    const email = new EmailTab(page);
    await email.goto();
    const dialog = await email.openGmailDialog();
    await expect(dialog.root).toContainText("2-Step Verification");
    await expect(
      dialog.root.getByRole("link", { name: "myaccount.google.com/apppasswords" }),
    ).toHaveAttribute("href", "https://myaccount.google.com/apppasswords");
    await expect(dialog.appPassword).toHaveAttribute("type", "password");

    // Nothing typed: checked here, nothing sent.
    await dialog.connect.click();
    await expect(dialog.problem).toHaveText("Enter your Gmail address and the app password.");

    // The server tries a real IMAP login and cannot get in: its own words appear in the form.
    const answered = page.waitForResponse(
      (r) => r.url().endsWith("/api/imap/app-password") && r.request().method() === "POST",
    );
    await dialog.address.fill("vera.vine@gmail.com");
    await dialog.appPassword.fill("abcd efgh ijkl mnop");
    await dialog.connect.click();
    const res = await answered;
    expect(res.status()).toBeGreaterThanOrEqual(400);
    const { error } = (await res.json()) as { error: string };
    expect(error).toMatch(/Gmail/);
    await expect(dialog.problem).toHaveText(error);
    await expect(dialog.root).toBeVisible();
    await expect(email.connectedBox).toHaveCount(0);

    // Cancel closes the dialog.
    await dialog.cancel.click();
    await expect(dialog.root).toBeHidden();
  });

  test("importing an .eml order mail creates the order; the summary and the dashboard show it", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const email = new EmailTab(page);
    const order = orderNumber();
    const product = `Vine Test Lamp ${order.slice(-4)}`;
    const raw = amazonMail({
      kind: "ordered",
      order,
      items: [{ name: product, asin: "B0E2ETEST1", price: "0.00" }],
      total: "0.00",
    });
    await email.goto();
    await expect(email.importButton).toBeDisabled();
    await email.fileInput.setInputFiles({
      name: "order.eml",
      mimeType: "message/rfc822",
      buffer: Buffer.from(raw),
    });
    await expect(email.importCard).toContainText("1 file selected");
    await email.importButton.click();
    await expect(email.importSummary).toBeVisible({ timeout: 15_000 });
    await expect(email.summaryValue("Messages read")).toHaveText("1");
    await expect(email.summaryValue("Created orders")).toHaveText("1");
    await expect(email.summaryValue("Updated orders")).toHaveText("0");
    await expect(email.importSummary).toContainText("1 email read: 1 created 1 order.");
    await expect(shell.toast("Import Complete")).toBeVisible();

    // The same file again: nothing new, and the reason in plain words.
    await email.importFiles([
      { name: "order.eml", mimeType: "message/rfc822", buffer: Buffer.from(raw) },
    ]);
    await expect(email.summaryValue("Created orders")).toHaveText("0");
    await expect(email.importSummary).toContainText("1 email read: 1 skipped.");
    await expect(email.importSummary).toContainText("Skipped messages:");

    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await expect(dashboard.card(product)).toBeVisible();
    const card = new EmailsScannedCard(page);
    await expect(card.value).toHaveText(/^[1-9]\d*$/);
  });

  test("an mbox in Vine orders only: what the mode kept out comes first with the offer to switch; the buckets add up", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const email = new EmailTab(page);
    const vineOrder = orderNumber();
    const paidOrder = orderNumber();
    const unknownOrder = orderNumber();
    const box = [
      amazonMail({
        kind: "ordered",
        order: vineOrder,
        items: [{ name: `Vine Mug ${vineOrder.slice(-4)}`, asin: "B0E2EMBOX1", price: "0.00" }],
        total: "0.00",
      }),
      amazonMail({
        kind: "ordered",
        order: paidOrder,
        items: [{ name: "Paid Grinder", asin: "B0E2EMBOX2", price: "34.99" }],
        total: "37.44",
      }),
      // No total and no price: the Vine rule cannot be decided.
      amazonMail({
        kind: "ordered",
        order: unknownOrder,
        items: [{ name: "Unclear Vase", asin: "B0E2EMBOX3", price: null }],
      }),
    ]
      .map((m, i) => `From x@y Tue Jan 14 15:04:0${i} 2025\n${m.replace(/\r\n/g, "\n")}\n`)
      .join("");
    await email.goto();
    await email.importFiles([
      { name: "takeout.mbox", mimeType: "application/mbox", buffer: Buffer.from(box) },
    ]);
    const kept = email.importSummary.locator(".import-mode-limited");
    await expect(kept).toContainText(
      "“Vine orders only” kept 1 email about other Amazon orders out (paid orders and their updates).",
    );
    await expect(email.importSummary).toContainText(
      "3 emails read: 1 created 1 order, 1 not understood, 1 skipped.",
    );
    await expect(email.summaryValue("Not understood")).toHaveText("1");
    await expect(email.importSummary).toContainText(
      "1 email from Amazon was not understood (US 1); it is read again when Grapevine's mail reader is updated.",
    );
    await kept.getByRole("button", { name: "Import all Amazon orders" }).click();
    await expect(shell.toast("Import setting saved")).toBeVisible();
    await expect(page.getByRole("radio", { name: /All Amazon orders/ })).toBeChecked();
    await expect(kept.getByRole("region", { name: "Skipped mail" })).toContainText(
      "1 email read earlier was skipped because of “Vine orders only”. To import it now, import the same files again.",
    );
    await expect(kept.getByRole("button", { name: "Import all Amazon orders" })).toHaveCount(0);
  });

  test("a file that is not mail is refused with the server's words", async ({
    page,
    signedInUser: _user,
  }) => {
    const email = new EmailTab(page);
    await email.goto();
    await email.importFiles([
      { name: "notes.eml", mimeType: "message/rfc822", buffer: Buffer.from("\u0000\u0001binary") },
    ]);
    await expect(email.importError).toContainText("notes.eml");
    await expect(email.importSummary).toHaveCount(0);
  });

  test("the privacy card opens 'Email Access & Privacy Details'", async ({
    page,
    signedInUser: _user,
  }) => {
    const email = new EmailTab(page);
    await email.goto();
    await email.privacyButton.click();
    const dialog = email.privacyDialog;
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { level: 3 })).toHaveText(
      "Email Access & Privacy Details",
    );
    for (const text of [
      "https://mail.google.com/",
      "Only emails from Amazon's domains",
      "Personal, work and financial emails",
      "Filtering on the server",
      "Local processing",
      "Encrypted credentials",
      "No mail stored",
      "Disconnect your mailbox",
      "Delete your account",
    ]) {
      await expect(dialog).toContainText(text);
    }
    await expect(dialog.getByRole("link", { name: "Google's permissions page" })).toHaveAttribute(
      "href",
      "https://myaccount.google.com/permissions",
    );
    await dialog.getByRole("button", { name: "Close", exact: true }).last().click();
    await expect(dialog).toBeHidden();
  });
});

test.describe("return from Google's authorization", () => {
  test("oauth=success: 'Email Connected', the Email tab, and the parameter removed", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const email = new EmailTab(page);
    await page.goto("/account?oauth=success");
    await shell.expectToast("Email Connected");
    await email.expectSelected();
    await expect(page).toHaveURL(/\/account$/);
  });

  test("oauth=error: the failure toast, and the parameter removed (others kept)", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const email = new EmailTab(page);
    await page.goto("/account?tab=email&oauth=error");
    const toast = shell.toast("Failed to connect your Gmail account. Please try again.");
    await expect(toast).toBeVisible();
    await email.expectSelected();
    await expect(page).toHaveURL(/\/account\?tab=email$/);
    // Reloading does not show it again.
    await page.reload();
    await email.expectSelected();
    await expect(toast).toHaveCount(0);
  });
});

test("dashboard: Emails Scanned shows 0 and 'Connect your mailbox' without a mailbox", async ({
  page,
  signedInUser: _user,
}) => {
  const card = new EmailsScannedCard(page);
  await expect(card.value).toHaveText("0");
  const statusCalls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/imap/status")) statusCalls.push(r.url());
  });
  await expect(card.connectLink).toBeVisible();
  await card.connectLink.click();
  const email = new EmailTab(page);
  await email.expectSelected();
  expect(statusCalls, "no status call without a connected mailbox").toEqual([]);
});

/* ------------------------------------------------------------------------------------------------
 * A connected mailbox. No IMAP server is wired to the e2e server, so the test answers the
 * mailbox's calls itself (user data with emailSettings, status, folders, folder select, disconnect).
 * --------------------------------------------------------------------------------------------- */

type Mock = {
  settings: NonNullable<UserData["emailSettings"]>;
  status: MailboxStatus;
  folders: MailFolder[];
  selectBodies: unknown[];
  processBodies: unknown[];
  emailsscanned: number;
  /** While set, a folder save is answered only once this settles (the test holds it open). */
  selectHold?: Promise<void>;
};

const action = (available: boolean, message: string): MailboxStatus["manualReconnect"] => ({
  available,
  message,
  nextAttemptTime: null,
  buttonState: available ? "enabled" : "hidden",
  remainingAttempts: { window: 3, daily: 10 },
});

async function mockConnectedMailbox(page: Page, over: Partial<Mock> = {}): Promise<Mock> {
  const mock: Mock = {
    settings: {
      provider: "gmail",
      isConnected: true,
      emailAddress: "vera.vine@gmail.com",
      selectedFolder: "INBOX",
      processedFolder: null,
      markProcessedAsRead: false,
      lastFolderRefresh: new Date().toISOString(),
      accessToken: "present",
    },
    status: {
      status: "idle",
      manualReconnect: action(false, "Not needed right now"),
      idleRetry: action(false, "Not needed right now"),
      lastError: null,
      lastErrorCode: null,
      folder: "INBOX",
      lastProcessedTime: new Date(Date.now() - 5 * 60_000).toISOString(),
      emailsScanned: 12,
      nextAttemptTime: null,
      reconnecting: false,
    },
    folders: [
      { name: "INBOX", path: "INBOX", specialUse: "\\Inbox" },
      { name: "Amazon", path: "Amazon", specialUse: null },
      { name: "Vine Done", path: "Vine Done", specialUse: null },
    ],
    selectBodies: [],
    processBodies: [],
    emailsscanned: 12,
    ...over,
  };
  await page.route("**/api/user/data", async (route: Route) => {
    const res = await route.fetch();
    const body = (await res.json()) as UserData;
    await route.fulfill({
      response: res,
      json: { ...body, emailsscanned: mock.emailsscanned, emailSettings: mock.settings },
    });
  });
  await page.route("**/api/imap/status", (route) => route.fulfill({ json: mock.status }));
  await page.route("**/api/imap/folders", (route) => route.fulfill({ json: mock.folders }));
  await page.route("**/api/imap/folders/select", async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    mock.selectBodies.push(body);
    await mock.selectHold;
    mock.settings = {
      ...mock.settings,
      selectedFolder: String(body.selectedFolder),
      processedFolder: (body.processedFolder as string | undefined) ?? null,
      markProcessedAsRead: body.markProcessedAsRead === true,
    };
    await route.fulfill({
      json: { success: true, message: "saved", emailSettings: mock.settings },
    });
  });
  await page.route("**/api/imap/process-emails", async (route) => {
    mock.processBodies.push(route.request().postDataJSON());
    await route.fulfill({
      status: 202,
      json: { success: true, message: "Starting to scan your emails." },
    });
  });
  return mock;
}

test.describe("Email Configuration with a connected mailbox (calls answered by the test)", () => {
  test("after switching to All Amazon orders, the mail skipped under Vine orders only is offered for a re-scan", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const mock = await mockConnectedMailbox(page);
    const email = new EmailTab(page);
    await email.goto();
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toUTCString();
    const raw = amazonMail({
      kind: "ordered",
      order: orderNumber(),
      items: [{ name: "Paid Toaster", asin: "B0E2ERESCN", price: "59.99" }],
      total: "59.99",
      date: tenDaysAgo,
    });
    await email.importFiles([
      { name: "paid.eml", mimeType: "message/rfc822", buffer: Buffer.from(raw) },
    ]);
    await expect(email.summaryValue("Created orders")).toHaveText("0");
    await page.getByRole("radio", { name: /All Amazon orders/ }).check();
    const offer = page.getByRole("region", { name: "Skipped mail" });
    await expect(offer).toContainText(
      "1 email read earlier was skipped because of “Vine orders only”. To import it now, import the same files again or re-scan the mail your mailbox already read.",
    );
    // The period reaching the oldest skipped message (10 days ago): the 14-day one.
    await offer.getByRole("button", { name: "Re-scan the last 14 days" }).click();
    await expect(shell.toast("Re-scan started")).toBeVisible();
    expect(mock.processBodies).toEqual([{ daysBack: 14 }]);
    await expect(offer.getByRole("button", { name: "Re-scan started" })).toBeDisabled();
  });

  test("status box, folder settings (dirty tracking, '__none__', Saving...), Process Old Emails", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    await page.clock.install();
    const mock = await mockConnectedMailbox(page);
    const email = new EmailTab(page);
    await email.goto();
    await expect(email.providerChooser).toHaveCount(0);
    await expect(email.connectedBox).toContainText("vera.vine@gmail.com");
    await expect(email.connectedBox).toContainText("Real-time monitoring");
    await expect(email.connectedBox).toContainText("5m ago");
    await expect(email.connectedBox.getByRole("button", { name: "Disconnect" })).toBeVisible();

    // Folder settings: saved values shown, Save/Reset only when something differs.
    const panel = email.panel.getByRole("article", { name: "Email Folder Settings" });
    const monitor = panel.getByLabel("Monitor folder");
    const processed = panel.getByLabel("Move processed emails to");
    const markRead = panel.getByLabel("Mark processed emails as read");
    const save = panel.getByRole("button", { name: "Save Settings" });
    const reset = panel.getByRole("button", { name: "Reset Settings" });
    await expect(monitor).toHaveValue("INBOX");
    await expect(processed).toHaveValue("__none__");
    await expect(processed.locator("option").first()).toHaveText("Leave in original folder");
    // No option with an empty value; the monitored folder is not offered as the processed one.
    await expect(panel.locator('option[value=""]')).toHaveCount(0);
    await expect(processed.locator('option[value="INBOX"]')).toHaveCount(0);
    await expect(save).toBeDisabled();
    await expect(reset).toBeDisabled();

    await markRead.check();
    await expect(save).toBeEnabled();
    await markRead.uncheck();
    await expect(save).toBeDisabled();

    await processed.selectOption("Vine Done");
    await expect(reset).toBeEnabled();
    await reset.click();
    await expect(processed).toHaveValue("__none__");
    await expect(save).toBeDisabled();

    // Process Old Emails: closed (emails were scanned); opens for 5 s after a folder change.
    const section = email.panel.locator(".process-old-emails details");
    await expect(section).not.toHaveAttribute("open", "");

    await monitor.selectOption("Amazon");
    await markRead.check();
    let answerSave!: () => void;
    mock.selectHold = new Promise<void>((resolve) => {
      answerSave = resolve;
    });
    await save.click();
    await expect(panel.getByRole("button", { name: "Saving..." })).toBeDisabled();
    answerSave();
    mock.selectHold = undefined;
    await shell.expectToast("Folder Settings Saved");
    expect(mock.selectBodies.at(-1)).toEqual({
      selectedFolder: "Amazon",
      markProcessedAsRead: true,
    });
    await expect(save).toBeDisabled();
    await expect(section).toHaveAttribute("open", "");
    await page.clock.fastForward(5_100);
    await expect(section).not.toHaveAttribute("open", "");

    await processed.selectOption("Vine Done");
    await save.click();
    await shell.expectToast("Folder Settings Saved");
    expect(mock.selectBodies.at(-1)).toEqual({
      selectedFolder: "Amazon",
      processedFolder: "Vine Done",
      markProcessedAsRead: true,
    });

    // Process Old Emails: periods, confirmation, toasts, then the dashboard 2 s later. It is
    // open again for the folder change; using it keeps it open past the 5 s.
    await expect(section).toHaveAttribute("open", "");
    const period = section.getByLabel("Period");
    await period.focus();
    await expect(period).toHaveValue("30");
    await expect(period.locator("option")).toHaveText([
      "1 day",
      "7 days",
      "14 days",
      "30 days",
      "60 days",
      "90 days",
      "120 days",
      "150 days",
      "180 days",
    ]);
    await page.clock.fastForward(5_500);
    await expect(section).toHaveAttribute("open", "");
    await period.selectOption("7");
    await section.getByRole("button", { name: "Process Old Emails" }).click();
    const confirm = page.getByRole("dialog", { name: "Process Old Emails" });
    await expect(confirm).toContainText(
      "Are you sure you want to process emails from the last 7 day(s)?",
    );
    await expect(confirm).toContainText("may take a while");
    await confirm.getByRole("button", { name: "Process Emails" }).click();
    await shell.expectToast("Email Processing Complete");
    expect(mock.processBodies).toEqual([{ daysBack: 7 }]);
    await expect(page).toHaveURL("/", { timeout: 5_000 });
  });

  test("Process Old Emails is open when nothing was scanned; the dashboard offers Reconnect", async ({
    page,
    signedInUser: _user,
  }) => {
    const mock = await mockConnectedMailbox(page, { emailsscanned: 0 });
    mock.status = {
      ...mock.status,
      status: "disconnected",
      lastError: "Cannot reach the mail server.",
      emailsScanned: 0,
      manualReconnect: action(
        true,
        "Reconnect to Gmail now (3 of 3 attempts left in 15 minutes, 10 today)",
      ),
    };
    let reconnects = 0;
    await page.route("**/api/imap/reconnect/manual", (route) => {
      reconnects++;
      return route.fulfill({ json: { success: true, message: "Reconnecting to Gmail" } });
    });
    const email = new EmailTab(page);
    await email.goto();
    await expect(email.panel.locator(".process-old-emails details")).toHaveAttribute("open", "");
    await expect(email.connectedBox).toContainText("Disconnected");

    await page.goto("/");
    const card = new EmailsScannedCard(page);
    await expect(card.value).toHaveText("0");
    await expect(card.root).toContainText("Disconnected");
    await expect(card.root).toContainText("Last processed: 5m ago");
    await expect(card.reconnectOffer).toContainText("Cannot reach the mail server.");
    await expect(card.reconnectOffer).toContainText("3 of 3 attempts left");
    await expect(card.retryOffer).toHaveCount(0);
    await card.reconnectOffer.getByRole("button", { name: "Reconnect" }).click();
    await expect.poll(() => reconnects).toBe(1);
  });

  test("Gmail refusing for now: 'Reconnecting…', the refusal in words and the next automatic try; an import cut short is listed", async ({
    page,
    signedInUser: _user,
  }) => {
    const next = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const refusal =
      "Gmail paused this account's mail downloads: it has used its daily IMAP allowance. Grapevine tries again in a few hours.";
    await mockConnectedMailbox(page, {
      status: {
        status: "disconnected",
        manualReconnect: action(
          true,
          "Reconnect to Gmail now (3 of 3 attempts left in 15 minutes, 20 today)",
        ),
        idleRetry: action(false, "Not needed right now"),
        lastError: refusal,
        lastErrorCode: "mailbox.server.bandwidth",
        folder: "INBOX",
        lastProcessedTime: new Date(Date.now() - 5 * 60_000).toISOString(),
        emailsScanned: 12,
        nextAttemptTime: next,
        reconnecting: true,
      },
    });
    const stopped =
      'The import of "takeout.mbox" stopped after 1,500 messages and did not finish (the server restarted or the import failed). Import the same file again to finish it: messages already read are skipped, nothing is duplicated.';
    let dismissed = false;
    await page.route("**/api/imap/imports", (route) => {
      if (route.request().method() === "DELETE") {
        dismissed = true;
        return route.fulfill({ json: { success: true, interrupted: [] } });
      }
      return route.fulfill({
        json: {
          interrupted: dismissed
            ? []
            : [
                {
                  fileName: "takeout.mbox",
                  fileBytes: 123_456_789,
                  messagesRead: 1500,
                  startedAt: new Date().toISOString(),
                  lastProgressAt: new Date().toISOString(),
                  message: stopped,
                },
              ],
        },
      });
    });
    const email = new EmailTab(page);
    await email.goto();
    await expect(email.connectedBox.locator(".mailbox-badge")).toHaveText("Reconnecting…");
    await expect(email.connectedBox).toContainText(refusal);
    await expect(email.connectedBox).toContainText("Next automatic try:");
    await expect(email.connectedBox).not.toContainText("password");
    const notice = email.panel.locator(".import-interrupted");
    await expect(notice.locator("p")).toHaveText(stopped);
    await notice.getByRole("button", { name: "Dismiss" }).click();
    await expect(notice).toHaveCount(0);
    expect(dismissed).toBe(true);
  });

  test("the expired authorization warning asks to reconnect", async ({
    page,
    signedInUser: _user,
  }) => {
    const mock = await mockConnectedMailbox(page);
    mock.settings = { ...mock.settings, isConnected: false, accessToken: null };
    const email = new EmailTab(page);
    await email.goto();
    await expect(email.expiredWarning).toContainText("Email Authorization Expired");
    await expect(email.providerChooser).toBeVisible();
    await email.expiredWarning.getByRole("button", { name: "Reconnect Gmail" }).click();
    await expect(email.gmailDialog.root).toBeVisible();
  });
});
