/** Pages anyone can see: the privacy policy and the 404 card. */
import { expect, test } from "./support/fixtures.ts";

test.describe("404", () => {
  test("an unknown address shows the 404 card to a signed-out visitor", async ({ page, shell }) => {
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "404 Page Not Found", level: 1 })).toBeVisible();
    await expect(shell.signInLink).toBeVisible();

    await page.getByRole("main").getByRole("button", { name: "Go to sign in" }).click();
    await expect(page).toHaveURL("/login");
  });

  test("an unknown address shows the 404 card to a signed-in user", async ({
    page,
    signedInUser,
    shell,
  }) => {
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "404 Page Not Found", level: 1 })).toBeVisible();
    await shell.expectUserMenuShows(signedInUser.displayname, signedInUser.email);

    await page.getByRole("main").getByRole("button", { name: "Back to Dashboard" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  });
});

test.describe("Privacy policy", () => {
  test("a signed-out visitor reaches the privacy policy from the footer", async ({
    page,
    loginPage,
    shell,
  }) => {
    await loginPage.goto();
    await expect(shell.privacyPolicyLink).toBeVisible();
    await expect(shell.footerNav.getByRole("link", { name: "Account Settings" })).toHaveCount(0);

    await shell.privacyPolicyLink.click();
    await expect(page).toHaveURL("/privacy-policy");
    await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
    // Still signed out: the header offers to sign in.
    await expect(shell.signInLink).toBeVisible();
  });

  test("the privacy policy shows its date, version and sections", async ({ page, shell }) => {
    await page.goto("/privacy-policy");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
    await expect(main.getByText("Last Updated: January 2025", { exact: true })).toBeVisible();
    await expect(main.getByText("Version 1.0", { exact: true })).toBeVisible();
    await expect(main.getByRole("heading", { level: 2 })).toHaveText([
      "Email access permissions",
      "Data handling and storage",
      "Alert channels (optional)",
      "Email processing",
      "Your rights",
      "Contact",
    ]);
    await expect(shell.privacyPolicyLink).toBeVisible();
    await expect(shell.userMenuButton).toHaveCount(0);
  });
});
