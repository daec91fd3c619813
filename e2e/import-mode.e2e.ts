import { EmailTab } from "./pages/EmailTab.ts";
import { expect, test } from "./support/fixtures.ts";

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
