/** Account Settings → Profile: profile, password, export and account deletion. */

import fs from "node:fs/promises";
import { signInWithToken } from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";
import { msg } from "./support/i18n.ts";

test.describe("Profile", () => {
  test("changing the display name shows 'Profile updated' and the new name in the user menu", async ({
    page,
    signedInUser: user,
    accountPage,
    shell,
  }) => {
    await accountPage.goto();
    await expect(
      accountPage.tabs.getByRole("tab", { name: "Profile Information" }),
    ).toHaveAttribute("aria-selected", "true");
    await expect(accountPage.displayname).toHaveValue(user.displayname);
    await expect(accountPage.email).toHaveValue(user.email);

    await accountPage.updateDisplayname("Nora Newname");
    await shell.expectToast("Profile updated");
    await shell.expectUserMenuShows("Nora Newname", user.email);
    await expect(shell.header.getByText(user.displayname, { exact: true })).toHaveCount(0);

    // Saved on the server, not only on screen.
    await page.reload();
    await accountPage.expectLoaded();
    await expect(accountPage.displayname).toHaveValue("Nora Newname");
    await shell.expectUserMenuShows("Nora Newname", user.email);
  });
});

test.describe("Change Password", () => {
  test("the dialog checks its fields, shows the server's refusal, and changes the password", async ({
    signedInUser: user,
    accountPage,
    shell,
    loginPage,
    page,
  }) => {
    const newPassword = "brand-new-pass-2";
    await accountPage.goto();
    const dialog = await accountPage.openPasswordDialog();

    // Cancel clears what was typed.
    await dialog.current.fill("typed");
    await dialog.cancel.click();
    await expect(dialog.root).toBeHidden();
    await accountPage.openPasswordDialog();
    await expect(dialog.current).toHaveValue("");

    await dialog.change(user.password, newPassword, `${newPassword}-typo`);
    await expect(dialog.error).toHaveText("New passwords do not match");

    await dialog.change(user.password, "abcde");
    await expect(dialog.error).toHaveText("Password must be at least 6 characters long");

    await dialog.change("not-my-password", newPassword);
    await shell.expectToast("Current password is incorrect");
    await expect(dialog.error).toHaveCount(0);
    await expect(dialog.root).toBeVisible();

    await dialog.change(user.password, newPassword);
    await shell.expectToast("Password changed");
    await expect(dialog.root).toBeHidden();

    await accountPage.openPasswordDialog();
    await expect(dialog.current).toHaveValue("");
    await expect(dialog.next).toHaveValue("");
    await expect(dialog.confirm).toHaveValue("");
    await dialog.cancel.click();
    await expect(dialog.root).toBeHidden();

    // The old password no longer works; the new one does.
    await shell.logout();
    await shell.expectSignedOutAtLogin();
    await loginPage.signIn(user.email, user.password);
    await loginPage.expectError("Incorrect email or password");
    await loginPage.signIn(user.email, newPassword);
    await expect(page).toHaveURL("/");
    await shell.expectUserMenuShows(user.displayname, user.email);
  });
});

test.describe("Your data", () => {
  test("Export my data downloads a JSON file with the account's data", async ({
    page,
    signedInUser: user,
    accountPage,
    shell,
  }) => {
    await accountPage.goto();
    const downloading = page.waitForEvent("download");
    await accountPage.exportButton.click();
    const download = await downloading;
    await shell.expectToast("Export downloaded");

    expect(download.suggestedFilename()).toMatch(/^grapevine-export-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await fs.readFile(await download.path(), "utf8");
    expect(text).toContain(user.email);
    const doc = JSON.parse(text) as { user?: Record<string, unknown> };
    expect(doc.user).toMatchObject({
      userid: user.user.userid,
      email: user.email,
      displayname: user.displayname,
    });
    expect(text).not.toContain(user.password);
  });

  test("Export with photos and videos downloads a tar archive holding export.json", async ({
    page,
    signedInUser: user,
    accountPage,
    shell,
  }) => {
    await accountPage.goto();
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export with photos and videos" }).click();
    const download = await downloading;
    await shell.expectToast("Export downloaded");

    expect(download.suggestedFilename()).toMatch(/\.tar$/);
    const bytes = await fs.readFile(await download.path());
    // A tar archive: "ustar" at offset 257 of each 512-byte header; export.json holds the account.
    expect(bytes.subarray(257, 262).toString("latin1")).toBe("ustar");
    const text = bytes.toString("latin1");
    expect(text).toContain("export.json");
    expect(text).toContain(user.email);
    expect(text).not.toContain(user.password);
  });

  test("Delete account refuses a wrong password and deletes with the right one", async ({
    page,
    signedInUser: user,
    accountPage,
    shell,
    loginPage,
  }) => {
    await accountPage.goto();
    const dialog = await accountPage.openDeleteDialog();
    await expect(dialog.confirm).toBeDisabled();

    await dialog.deleteWith("not-my-password");
    await shell.expectToast("Password is incorrect. Your account was not deleted.");
    await expect(dialog.root).toBeVisible();
    await dialog.cancel.click();
    await expect(dialog.root).toBeHidden();
    // Nothing changed: still here, still signed in.
    await expect(page).toHaveURL("/account");
    await shell.expectUserMenuShows(user.displayname, user.email);

    await accountPage.openDeleteDialog();
    await dialog.deleteWith(user.password);
    await shell.expectToast("Account deleted");
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await shell.expectSignedOutAtLogin();

    await loginPage.signIn(user.email, user.password);
    await loginPage.expectError("Incorrect email or password");
  });
});

test.describe("Language", () => {
  test("choosing Deutsch in Profile shows the screens in German, saved on the account", async ({
    page,
    browser,
    request,
    signedInUser: user,
    accountPage,
  }) => {
    await accountPage.goto();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const picker = page.getByRole("tabpanel").getByLabel("Language", { exact: true });
    await picker.selectOption({ label: "Deutsch" });

    // The toast comes in the new language (its region's name too), and the page switches to it.
    await expect(
      page
        .getByRole("region", { name: msg("de", "app.toasts") })
        .getByRole("status")
        .filter({ hasText: msg("de", "profile.language.saved") }),
    ).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Kontoeinstellungen", level: 1 })).toBeVisible();
    await expect(main.getByRole("tablist", { name: "Kontobereiche" })).toBeVisible();
    await expect(main.getByRole("button", { name: "Profil speichern" })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Account Settings" })).toHaveCount(0);

    // Saved on the account, not only in this browser.
    const data = await request.get("/api/user/data", {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(data.status()).toBe(200);
    expect(((await data.json()) as { language: string }).language).toBe("de");

    // A reload stays German.
    await page.reload();
    await expect(main.getByRole("heading", { name: "Kontoeinstellungen", level: 1 })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("tabpanel").getByLabel("Sprache", { exact: true })).toHaveValue(
      "de",
    );

    // Another browser in English signed in to the same account shows it in German too.
    const other = await browser.newContext({
      locale: "en-US",
      baseURL: test.info().project.use.baseURL,
    });
    try {
      const otherPage = await other.newPage();
      await signInWithToken(otherPage, user.token, "/account");
      await expect(
        otherPage.getByRole("main").getByRole("heading", { name: "Kontoeinstellungen", level: 1 }),
      ).toBeVisible();
      await expect(otherPage.locator("html")).toHaveAttribute("lang", "de");
    } finally {
      await other.close();
    }
  });
});

test("a language that cannot be saved (the server out of reach) stays unchosen, with a toast that says so", async ({
  page,
  signedInUser: _user,
  accountPage,
  shell,
}) => {
  await accountPage.goto();
  await page.route("**/api/user/language", (route) =>
    route.request().method() === "PUT" ? route.abort("failed") : route.fallback(),
  );
  await page.getByRole("tabpanel").getByLabel("Language", { exact: true }).selectOption("fr");
  await shell.expectToast("Failed to save the language");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(accountPage.heading).toBeVisible();
  await expect(page.getByRole("tabpanel").getByLabel("Language", { exact: true })).toHaveValue(
    "en",
  );
});
