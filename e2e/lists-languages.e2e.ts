/**
 * The dashboard, the orders list and the order cards for a reader whose browser speaks German,
 * Japanese, French, Spanish or Italian, on a phone in dark mode: the app takes the
 * browser's language on the first visit, every word of these screens is in it (no English left),
 * nothing runs off the 390 px screen. The words expected are read from the catalogs
 * (e2e/support/i18n.ts). Screens are shot for people when E2E_SHOTS_DIR is set.
 */
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { REPORT_HEADERS } from "../src/contract/vine-constants.ts";
import { INTL_LOCALES, type Language } from "../src/i18n/languages.ts";
import { buildXlsx } from "../test/support/xlsx.ts";
import { createUser, signInWithToken } from "./support/api.ts";
import { msg } from "./support/i18n.ts";
import { createOrderApi, expect, orderNumber, test } from "./support/orders.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;
async function shot(page: Page, name: string, fullPage = true) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** English texts of these screens that a German or Japanese reader must not see. */
const ENGLISH = [
  "Recent Orders",
  "This Month",
  "Average Value",
  "Review Rate",
  "Reviews Due",
  "Emails Scanned",
  "Add Order",
  "All Orders",
  "Last update",
  "Welcome",
  "Not Shipped",
  "In Transit",
  "Ready for Review",
  "Tracking:",
  "Update Tracking",
  "Edit tracking",
  "Add tracking",
  "Change status",
  "Edit Review",
  "Write review on Amazon",
  "Showing",
  "Previous",
  "Next",
  "Expected:",
  "since delivery",
  "Not tracked",
  "Mark delivered",
  "no tracking",
  "Ordered ",
  "Review Submitted",
  "Manage your",
];

async function expectNoEnglish(page: Page) {
  // The Vine card and the mailbox badge are other parts' words (their own specs check them).
  const text = await page.getByRole("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const other of copy.querySelectorAll(".vine-stat-card")) other.remove();
    document.body.append(copy);
    const text = copy.innerText;
    copy.remove();
    return text;
  });
  expectNone(text, ENGLISH);
}

/** None of the English texts as words of their own ("Cancel", not the "Cancel" of "Cancelar"). */
function expectNone(text: string, english: readonly string[]) {
  for (const words of english) {
    const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const alone = new RegExp(`(?<!\\p{L})${escaped}(?!\\p{L})`, "u");
    expect(text, `"${words}" left in English`).not.toMatch(alone);
  }
}

async function expectFitsPhone(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "page width vs. window width").toBeLessThanOrEqual(innerWidth);
}

/** Orders in every state the cards show: ordered, in transit, delivered, reviewed, untracked. */
async function seed(request: APIRequestContext, token: string) {
  const res = await request.put("/api/user/marketplace", {
    headers: auth(token),
    data: { vineMarketplace: "DE" },
  });
  expect(res.status()).toBe(200);
  // The days below are UTC days, so the reader's zone is UTC (the cards show days in it).
  const zone = await request.patch("/api/user/timezone", {
    headers: auth(token),
    data: { timezone: "UTC" },
  });
  expect(zone.status()).toBe(200);
  const report = buildXlsx([
    [...REPORT_HEADERS],
    [
      orderNumber(),
      "B0UNTRACK1",
      "Gartenkniebank",
      "ORDER",
      new Date(`${isoDay(-9)}T00:00:00.000Z`),
      new Date(`${isoDay(-8)}T00:00:00.000Z`),
      null,
      25,
    ],
  ]);
  const imported = await request.post("/api/vine/itemized-report", {
    headers: auth(token),
    multipart: {
      file: {
        name: "report.xlsx",
        mimeType: "application/octet-stream",
        buffer: Buffer.from(report),
      },
    },
  });
  expect(imported.status()).toBe(200);
  const base = { amazonordernumber: null, estimatedretailvalue: "24.99", dateordered: isoDay(-6) };
  await createOrderApi(request, token, {
    ...base,
    productname: "Kabellose Kopfhörer mit Geräuschunterdrückung",
    asin: "B0LANG0001",
    amazonordernumber: orderNumber(),
    status: "Shipped",
    trackingnumber: "1Z999AA10123456784",
    carrier: "UPS",
    expecteddeliverydate: isoDay(1),
  });
  await createOrderApi(request, token, {
    ...base,
    productname: "Edelstahl-Trinkflasche",
    asin: "B0LANG0002",
    status: "Received",
    // Three days and an hour ago, whatever the time of day ("3 days since delivery" counts whole
    // days since the instant: a fixed 10:00 UTC was two days before 10 a.m.).
    datedelivered: new Date(Date.now() - 3 * 86_400_000 - 3_600_000).toISOString(),
  });
  await createOrderApi(request, token, {
    ...base,
    productname: "LED-Schreibtischlampe",
    asin: "B0LANG0003",
    status: "Review Submitted",
    datedelivered: `${isoDay(-5)}T10:00:00.000Z`,
    datereviewsubmitted: isoDay(-1),
  });
  await createOrderApi(request, token, {
    ...base,
    productname: "Bambus-Schneidebrett",
    asin: "B0LANG0004",
    status: "Ordered",
  });
}

/** The browser's locale of each language (the app picks its language from it). */
const LANGUAGES: [Exclude<Language, "en">, string][] = [
  ["de", "de-DE"],
  ["ja", "ja-JP"],
  ["fr", "fr-FR"],
  ["es", "es-ES"],
  ["it", "it-IT"],
];

/** A bare day as the cards show it to a reader of the language ("19. Nov. 2026", "2026年11月19日"). */
const shownDay = (language: Language, day: string) =>
  new Intl.DateTimeFormat(INTL_LOCALES[language], {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  })
    .format(new Date(`${day}T12:00:00Z`))
    .replace(/[\u202f\u00a0]/g, " ");

for (const [language, locale] of LANGUAGES) {
  const t = (id: string, values?: Record<string, unknown>) => msg(language, id, values);
  test.describe(`a ${language} browser on a phone in dark mode`, () => {
    test.use({ locale, colorScheme: "dark", viewport: { width: 390, height: 844 } });

    test("the dashboard, the orders list and the cards are in its language", async ({
      page,
      request,
    }) => {
      const user = await createUser(request, { displayname: "Vera Vine" });
      await seed(request, user.token);
      await signInWithToken(page, user.token, "/");
      const main = page.getByRole("main");

      await expect(
        main.getByRole("heading", { name: t("dashboard.title"), level: 1 }),
      ).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await expect(main.getByRole("heading", { name: t("dashboard.recentOrders") })).toBeVisible();
      await expect(main.locator(".status-card-title").nth(1)).toHaveText(t("status.shipped"));
      await expect(main.locator(".order-card").first()).toBeVisible();
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${language}-dashboard`);

      await page.goto("/orders?status=all");
      // The note's first sentence is in bold: <0>…</0> in the message.
      const untracked = /<0>(.*)<\/0>/.exec(t("card.untrackedNote", { count: 1 }))?.[1] ?? "";
      await expect(main.getByText(untracked)).toBeVisible();
      await expect(main.locator(".pagination-summary")).toHaveText(
        t("orders.showing", { from: 1, to: 5, total: 5 }),
      );
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${language}-orders`);

      await main
        .getByRole("button", { name: t("card.markDeliveredLabel", { product: "Gartenkniebank" }) })
        .click();
      const dialog = page.getByRole("dialog", { name: t("card.markDelivered") });
      // Shipped 8 days ago plus amazon.de's usual 2 days.
      await expect(dialog).toContainText(
        t("card.suggested", { date: shownDay(language, isoDay(-6)), days: 2, domain: "de" }),
      );
      expectNone(await dialog.innerText(), [
        "Mark delivered",
        "Delivered on",
        "Suggested",
        "shipped",
        "Cancel",
      ]);
      await shot(page, `${language}-mark-delivered`, false);
      await dialog.getByRole("button", { name: t("card.markDelivered") }).click();
      await expect(dialog).toBeHidden();

      await page.goto("/orders?status=Received");
      await expect(main.getByText(t("card.daysSinceDelivery", { count: 3 }))).toBeVisible();
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${language}-orders-received`);

      await page.goto("/orders?status=Shipped");
      await expect(main.locator(".order-card").first()).toBeVisible();
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${language}-orders-shipped`);
    });
  });
}
