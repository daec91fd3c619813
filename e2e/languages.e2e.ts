/**
 * Grapevine in the reader's language: a browser set to German, French, Spanish, Italian or
 * Japanese gets the app in it on the first visit, the account keeps it, and the screens'
 * words come from that language's catalog (read from locales/, not copied here).
 */
import type { Page } from "@playwright/test";
import type { UserData } from "../src/contract/index.ts";
import type { Language } from "../src/i18n/languages.ts";
import { createUser, signInWithToken } from "./support/api.ts";
import { expect, test } from "./support/orders.ts";

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
    test.use({ locale });

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
