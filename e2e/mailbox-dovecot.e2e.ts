/**
 * The mailbox for real: connect with an app password against the Dovecot that runs beside the
 * test server (e2e/support/server.ts), then a new Amazon Vine order mail arrives in the inbox and
 * shows up on the open dashboard without any click. On the way, the footer of a Gmail user links
 * to Google's permissions.
 */
import fs from "node:fs";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { amazonMail } from "../test/api/mail-messages.ts";
import { AppShell } from "./pages/AppShell.ts";
import { EmailTab } from "./pages/EmailTab.ts";
import { expect, test } from "./support/fixtures.ts";
import { liveStreamOpened } from "./support/live.ts";

type Mailbox = { host: string; port: number; user: string; pass: string };
const mailbox = (): Mailbox =>
  JSON.parse(
    fs.readFileSync(path.join(process.env.E2E_DATA_DIR ?? "", "e2e-mailbox.json"), "utf8"),
  ) as Mailbox;

async function deliver(mb: Mailbox, raw: string) {
  const client = new ImapFlow({
    host: mb.host,
    port: mb.port,
    secure: false,
    auth: { user: mb.user, pass: mb.pass },
    logger: false,
  });
  await client.connect();
  try {
    await client.append("INBOX", raw);
  } finally {
    await client.logout();
  }
}

test("connect Gmail with an app password, then a new Vine order mail appears on the dashboard", async ({
  page,
  signedInUser,
}) => {
  test.setTimeout(60_000);
  const mb = mailbox();
  const email = new EmailTab(page);
  await email.goto();

  // A wrong app password is refused by the real IMAP login and nothing is saved.
  // No Google client on this server: the dialog is the app-password form.
  const dialog = await email.openGmailDialog();
  await dialog.address.fill(mb.user);
  await dialog.appPassword.fill("wrong-password-00");
  await dialog.connect.click();
  await expect(dialog.problem).toContainText("Gmail refused this address and app password");
  await expect(email.connectedBox).toHaveCount(0);

  // The right one connects.
  await dialog.appPassword.fill(mb.pass);
  await dialog.connect.click();
  await expect(page.getByRole("status").filter({ hasText: "Email Connected" })).toBeVisible();
  await expect(email.connectedBox).toContainText(mb.user);
  await expect(email.connectedBox).toContainText(/Real-time monitoring|Connected/, {
    timeout: 15_000,
  });
  // A Gmail user's footer links to Google's permissions.
  await expect(
    new AppShell(page).footerNav.getByRole("link", { name: "Manage Permissions" }),
  ).toHaveAttribute("href", "https://myaccount.google.com/permissions");

  // A Vine order mail arrives: the dashboard, open and untouched, shows the new order.
  const opened = liveStreamOpened(page, signedInUser.token);
  await page.goto("/");
  await opened;
  const product = `Dovecot Delivered Kettle ${Date.now()}`;
  await deliver(
    mb,
    amazonMail({
      kind: "ordered",
      order: "113-5550001-0000001",
      items: [{ name: product, asin: "B0KETTLE01", price: "0.00" }],
      total: "0.00",
      date: new Date().toUTCString(),
    }),
  );
  await expect(page.getByRole("main").getByText(product)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("main").getByText("Emails Scanned")).toBeVisible();
});
