/**
 * The `test` every spec imports: page models as fixtures, a fresh signed-up user per test, and a
 * worker-wide guarantee that the administrator was registered before anyone else.
 */
import { test as base, expect } from "@playwright/test";
import { AccountPage } from "../pages/AccountPage.ts";
import { AdminLogsPage } from "../pages/AdminLogsPage.ts";
import { AppShell } from "../pages/AppShell.ts";
import { LoginPage } from "../pages/LoginPage.ts";
import { type Account, createUser, ensureAdmin, signInWithToken } from "./api.ts";

type TestFixtures = {
  loginPage: LoginPage;
  accountPage: AccountPage;
  adminLogsPage: AdminLogsPage;
  shell: AppShell;
  /** A new user registered through the API, not signed in in the browser. */
  user: Account;
  /** Like `user`, and already signed in in the browser, on the dashboard. */
  signedInUser: Account;
};

type WorkerFixtures = {
  /** The administrator (userid 1), registered before any other user of the run. */
  admin: Account;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  admin: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({
        baseURL: workerInfo.project.use.baseURL,
      });
      const admin = await ensureAdmin(request);
      await request.dispose();
      await use(admin);
    },
    { scope: "worker", auto: true },
  ],
  loginPage: async ({ page }, use) => use(new LoginPage(page)),
  accountPage: async ({ page }, use) => use(new AccountPage(page)),
  adminLogsPage: async ({ page }, use) => use(new AdminLogsPage(page)),
  shell: async ({ page }, use) => use(new AppShell(page)),
  user: async ({ request }, use) => use(await createUser(request)),
  signedInUser: async ({ page, user }, use) => {
    await signInWithToken(page, user.token, "/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await use(user);
  },
});

export { expect };
