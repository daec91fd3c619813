/**
 * Grapevine in the reader's language: a browser set to German, French, Spanish, Italian or
 * Japanese gets the app in it on the first visit, the account keeps it, and the screens'
 * words come from that language's catalog (read from locales/, not copied here).
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import type { UserData } from "../src/contract/index.ts";
import { INTL_LOCALES, type Language } from "../src/i18n/languages.ts";
import { createUser, signInWithToken } from "./support/api.ts";
import { msg } from "./support/i18n.ts";
import { createOrderApi, expect, orderNumber, test } from "./support/orders.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;
/** Screenshots for people to look at (E2E_SHOTS_DIR=/tmp/shots); nothing when unset. */
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

const BROWSER_LOCALES: Record<Exclude<Language, "en">, string> = {
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  it: "it-IT",
  ja: "ja-JP",
};

async function accountLanguage(page: Page, token: string): Promise<string | null> {
  const res = await page.request.get("/api/user/data", { headers: auth(token) });
  return ((await res.json()) as UserData).language;
}

for (const [language, locale] of Object.entries(BROWSER_LOCALES) as [
  Exclude<Language, "en">,
  string,
][]) {
  test.describe(`a browser in ${locale}`, () => {
    // German (long words) and Japanese (another script) on a phone in dark mode.
    const phone = language === "de" || language === "ja";
    test.use({
      locale,
      ...(phone ? { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const } : {}),
    });

    test("sign in, the dashboard, the orders list, Edit Order, the Vine page and a form's check", async ({
      page,
      request,
    }) => {
      const t = (id: string, values?: Record<string, unknown>) => msg(language, id, values);
      const user = await createUser(request);
      const marketplace = language === "ja" ? "JP" : language.toUpperCase();
      const put = await request.put("/api/user/marketplace", {
        headers: auth(user.token),
        data: { vineMarketplace: marketplace },
      });
      expect(put.status()).toBe(200);
      const currency = language === "ja" ? "JPY" : "EUR";
      const amount = language === "ja" ? 4990 : 24.99;
      const order = await createOrderApi(request, user.token, {
        productname: "Kabellose Kopfhörer Pro",
        asin: "B0LANGS001",
        amazonordernumber: orderNumber(),
        status: "Received",
        datedelivered: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        estimatedretailvalue: String(amount),
      });

      // Signed out, the sign-in page is already in the browser's language; a wrong password is
      // refused in it too (the server's error code, shown in the reader's words).
      await page.goto("/login");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: t("auth.signIn.title") })).toBeVisible();
      await main.getByLabel(t("auth.email"), { exact: true }).fill(user.email);
      await main.getByLabel(t("auth.password"), { exact: true }).fill("not-the-password");
      await main.getByRole("button", { name: t("auth.signIn.submit"), exact: true }).click();
      await expect(page.getByText(t("error.sign_in_wrong")).first()).toBeVisible();
      await main.getByLabel(t("auth.password"), { exact: true }).fill(user.password);
      await main.getByRole("button", { name: t("auth.signIn.submit"), exact: true }).click();

      await expect(
        page.getByRole("heading", { name: t("dashboard.title"), level: 1 }),
      ).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await shot(page, `languages-${language}-dashboard`);

      await page.goto("/orders");
      await expect(page.getByRole("heading", { name: t("orders.title"), level: 1 })).toBeVisible();
      const money = new Intl.NumberFormat(INTL_LOCALES[language], { style: "currency", currency });
      await expect(page.getByText(money.format(amount)).first()).toBeVisible();
      await shot(page, `languages-${language}-orders`);

      await page.goto(`/orders/${order.orderid}/edit`);
      await expect(page.getByRole("heading", { name: t("edit.title"), level: 1 })).toBeVisible();
      // The value to edit is written as the reader writes numbers ("24,99" in Europe).
      const symbol = money.formatToParts(0).find((p) => p.type === "currency")?.value;
      await expect(page.getByLabel(t("form.estimatedValue", { symbol }))).toHaveValue(
        language === "ja" ? "4990" : "24,99",
      );
      await shot(page, `languages-${language}-edit`);

      await page.goto("/vine");
      await expect(page.getByRole("heading", { name: t("nav.vine"), level: 1 })).toBeVisible();
      await expect(page.getByText(t("vine.settings.title")).first()).toBeVisible();
      await shot(page, `languages-${language}-vine`);

      await page.goto("/orders/new");
      await expect(page.getByRole("heading", { name: t("add.title"), level: 1 })).toBeVisible();
      await page.getByRole("button", { name: t("add.submit"), exact: true }).click();
      await expect(page.getByText(t("form.error.productNameRequired")).first()).toBeVisible();
      await shot(page, `languages-${language}-validation`);
      expect(await accountLanguage(page, user.token)).toBe(language);
    });

    test("the first visit is in its language, and the account keeps it", async ({
      page,
      request,
    }) => {
      const user = await createUser(request);
      await signInWithToken(page, user.token);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await expect.poll(() => accountLanguage(page, user.token)).toBe(language);
    });
  });
}

test("the account's language wins over the browser's, on any device", async ({ page, request }) => {
  const user = await createUser(request);
  const saved = await request.put("/api/user/language", {
    headers: auth(user.token),
    data: { language: "ja" },
  });
  expect(saved.status()).toBe(200);
  await signInWithToken(page, user.token);
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  expect(await accountLanguage(page, user.token)).toBe("ja");
});
