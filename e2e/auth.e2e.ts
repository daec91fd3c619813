/** Registering, signing in and out, the sign-in guard, and what a revoked session does. */
import {
  loginApi,
  logoutApi,
  newCredentials,
  signInWithToken,
  storedToken,
} from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";

test.describe("Sign up, sign out, sign in", () => {
  test("a new user registers, lands on the dashboard, logs out and signs in again", async ({
    page,
    loginPage,
    shell,
  }) => {
    const creds = newCredentials("register", "Rita Register");
    await loginPage.goto();
    await loginPage.register(creds);

    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByText(`Welcome, ${creds.displayname}.`)).toBeVisible();
    await expect(shell.brand).toBeVisible();
    await expect(shell.backToDashboard).toHaveCount(0);
    await shell.expectUserMenuShows(creds.displayname, creds.email);

    await shell.logout();
    await expect(page).toHaveURL("/login");
    await shell.expectSignedOutAtLogin();

    await loginPage.signIn(creds.email, creds.password);
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await shell.expectUserMenuShows(creds.displayname, creds.email);
  });

  test("a wrong password shows the server's message and keeps the user on the sign-in screen", async ({
    page,
    user,
    loginPage,
    shell,
  }) => {
    await loginPage.goto();
    await loginPage.signIn(user.email, "not-the-password");
    await loginPage.expectError("Incorrect email or password");
    await expect(page).toHaveURL("/login");
    await expect(shell.userMenuButton).toHaveCount(0);
  });

  test("registering an email that already has an account shows the server's message", async ({
    user,
    loginPage,
  }) => {
    await loginPage.goto();
    await loginPage.register({ ...user, displayname: "Someone Else" });
    await expect(loginPage.error).toHaveText(
      "An account with this email already exists. Sign in instead.",
    );
    await expect(loginPage.registerHeading).toBeVisible();
  });
});

test.describe("Sign-in guard", () => {
  test("a signed-out visit to /account asks to sign in and then returns to /account", async ({
    page,
    user,
    loginPage,
    accountPage,
  }) => {
    await page.goto("/account");
    await expect(page).toHaveURL("/login?next=%2Faccount");
    await expect(loginPage.signInHeading).toBeVisible();

    await loginPage.signIn(user.email, user.password);
    await expect(page).toHaveURL("/account");
    await accountPage.expectLoaded();
    await expect(accountPage.email).toHaveValue(user.email);
  });

  test("a signed-in visit to /login goes to the dashboard", async ({ page, signedInUser }) => {
    await page.goto("/login");
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByText(`Welcome, ${signedInUser.displayname}.`)).toBeVisible();
  });
});

test.describe("Revoked session", () => {
  test("after the session is revoked on the server, the next page load sends the user to sign in", async ({
    page,
    request,
    user,
    shell,
  }) => {
    // Sign in through the API from the browser's own context, then hand the token to the app.
    const session = await loginApi(page.request, user.email, user.password);
    await signInWithToken(page, session.token, "/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

    await logoutApi(request, session.token);

    await page.goto("/account");
    await expect(page).toHaveURL("/login?next=%2Faccount");
    await shell.expectSignedOutAtLogin();
    expect(await storedToken(page)).toBeNull();
  });

  test("after the session is revoked on the server, the next request sends the user to sign in", async ({
    page,
    request,
    user,
    accountPage,
    shell,
  }) => {
    await signInWithToken(page, user.token, "/account");
    await accountPage.expectLoaded();

    await logoutApi(request, user.token);

    await accountPage.updateDisplayname("Too Late");
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await shell.expectSignedOutAtLogin();
    await expect(shell.toast("Profile updated")).toHaveCount(0);
    expect(await storedToken(page)).toBeNull();
  });

  test("being sent to sign in after a revoked session shows no error toast", async ({
    page,
    request,
    user,
    accountPage,
    shell,
  }) => {
    // docs/messages.md: once the token is found invalid the browser goes to /login and processing stops,
    // so the failed save must not leave a 'Failed to update profile' toast behind.
    await signInWithToken(page, user.token, "/account");
    await accountPage.expectLoaded();
    await logoutApi(request, user.token);

    await accountPage.updateDisplayname("Too Late");
    await shell.expectSignedOutAtLogin();
    await expect(page).toHaveURL(/\/login(\?|$)/);
    // Checked once, right away: a toast would already be there, and it closes by itself after 5 s.
    expect(await shell.notifications.getByRole("status").allInnerTexts()).toEqual([]);
  });
});

test.describe("Language", () => {
  test("the language picked on the sign-in page shows at once and is saved to the account on sign-in", async ({
    page,
    request,
    user,
  }) => {
    await page.goto("/login");
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Create an account" }).click();
    await expect(main.getByRole("heading", { name: "Create account", level: 1 })).toBeVisible();
    await main.getByLabel("Email", { exact: true }).fill(user.email);
    await main.getByLabel("Language").selectOption("de");

    // German at once, before signing in, with what was typed kept: the page, the footer and the
    // installed app's manifest.
    await expect(main.getByRole("heading", { name: "Konto erstellen", level: 1 })).toBeVisible();
    await expect(main.getByLabel("E-Mail", { exact: true })).toHaveValue(user.email);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("link", { name: "Datenschutzerklärung" })).toBeVisible();
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
      "href",
      "/pwa/manifest.de.webmanifest",
    );
    const manifest = await request.get("/pwa/manifest.de.webmanifest");
    expect(manifest.headers()["cache-control"]).toBe("no-cache");
    expect(await manifest.json()).toMatchObject({
      name: "Grapevine",
      lang: "de",
      description:
        "Amazon-Vine-Bestellungen verfolgen, von der Bestellung bis zur freigegebenen Rezension.",
    });

    await main.getByRole("button", { name: "Anmelden", exact: true }).click();
    await expect(main.getByRole("heading", { name: "Willkommen zurück", level: 1 })).toBeVisible();
    await main.getByLabel("Passwort", { exact: true }).fill(user.password);
    await main.getByRole("button", { name: "Anmelden", exact: true }).click();
    await expect(page).toHaveURL("/");
    const header = page.getByRole("banner");
    await expect(header.getByLabel("Benutzermenü")).toBeVisible();
    await expect(header.getByRole("button", { name: "Benachrichtigungen" })).toBeVisible();

    // Saved to the account: notifications and alerts made on the server come in it too.
    await expect
      .poll(async () => {
        const res = await request.get("/api/user/data", {
          headers: { Authorization: `Bearer ${await storedToken(page)}` },
        });
        return ((await res.json()) as { language: string | null }).language;
      })
      .toBe("de");
  });
});
