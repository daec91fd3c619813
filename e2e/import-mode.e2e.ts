import { amazonMail } from "../test/api/mail-messages.ts";
import { EmailTab } from "./pages/EmailTab.ts";
import { expect, test } from "./support/fixtures.ts";
import { orderNumber } from "./support/orders.ts";

test("the import setting switches between Vine orders only and all Amazon orders, and stays", async ({
  page,
  signedInUser: _user,
}) => {
  const email = new EmailTab(page);
  await email.goto();
  const vine = page.getByRole("radio", { name: /Vine orders only/ });
  const all = page.getByRole("radio", { name: /All Amazon orders/ });
  await expect(vine).toBeChecked();

  await all.check();
  await expect(page.getByRole("status").filter({ hasText: "Import setting saved" })).toBeVisible();
  await page.reload();
  await email.expectSelected();
  await expect(all).toBeChecked();
  await expect(vine).not.toBeChecked();
});

test("mail skipped under Vine orders only is imported when the same file comes again under All, and the summary says what to do", async ({
  page,
  signedInUser: _user,
}) => {
  const email = new EmailTab(page);
  const order = orderNumber();
  const paid = Buffer.from(
    amazonMail({
      kind: "ordered",
      order,
      items: [{ name: `Paid Kettle ${order.slice(-4)}`, asin: "B0E2EPAID1", price: "39.99" }],
      total: "39.99",
    }),
  );
  const file = { name: "paid.eml", mimeType: "message/rfc822", buffer: paid };
  await email.goto();
  await email.importFiles([file]);
  await expect(email.summaryValue("Created orders")).toHaveText("0");
  await expect(email.importSummary).toContainText(
    "1 email was not about a Vine order (a free order: a total of 0 in any currency). To import every Amazon order, choose “All Amazon orders” above and import the files again.",
  );

  await page.getByRole("radio", { name: /All Amazon orders/ }).check();
  const offer = page.getByRole("region", { name: "Skipped mail" });
  await expect(offer).toContainText(
    "1 email read earlier was skipped because of “Vine orders only”. To import it now, import the same files again.",
  );
  // No mailbox connected: nothing to re-scan, so no re-scan button.
  await expect(offer.getByRole("button")).toHaveCount(0);

  await email.importFiles([file]);
  await expect(email.summaryValue("Created orders")).toHaveText("1");
  await expect(email.summaryValue("Skipped")).toHaveText("0");
});

test("an update about an order Grapevine does not have is explained, with what to do", async ({
  page,
  signedInUser: _user,
}) => {
  const email = new EmailTab(page);
  const raw = amazonMail({ kind: "delivered", order: orderNumber(), items: [] });
  await email.goto();
  await email.importFiles([
    { name: "delivered.eml", mimeType: "message/rfc822", buffer: Buffer.from(raw) },
  ]);
  await expect(email.importSummary).toContainText(
    "1 email was an update (shipped, delivered, canceled) about an order Grapevine does not have yet.",
  );
  await expect(email.importSummary).toContainText(
    "Import or backfill the period with their order confirmations first, then import it again.",
  );
});
