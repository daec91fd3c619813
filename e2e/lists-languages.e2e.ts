/**
 * The dashboard, the orders list and the order cards for a reader whose browser speaks German,
 * Japanese, French, Spanish or Italian, on a phone in dark mode (issue 26): the app takes the browser's language on the first
 * visit, every word of these screens is in it (no English left), nothing runs off the 390 px
 * screen. Screens are shot for people when E2E_SHOTS_DIR is set.
 */
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { buildXlsx } from "../test/support/xlsx.ts";
import { createUser, signInWithToken } from "./support/api.ts";
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
  const report = buildXlsx([
    [
      "Order Number",
      "ASIN",
      "Product Name",
      "Order Type",
      "Order Date",
      "Shipped Date",
      "Cancelled Date",
      "Estimated Tax Value",
    ],
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
    datedelivered: `${isoDay(-3)}T10:00:00.000Z`,
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

const LANGUAGES = [
  {
    locale: "de-DE",
    lang: "de",
    dashboard: "Übersicht",
    recent: "Neueste Bestellungen",
    shipped: "Versandt",
    delivered: "3 Tage seit Zustellung",
    untracked: "1 versandte Bestellung hat keine Sendungsverfolgung",
    showing: /^1–\d von \d Ergebnissen$/,
    markDelivered: "Als zugestellt markieren",
    usual: "auf amazon.de üblich: 2 Tage nach Versand",
  },
  {
    locale: "ja-JP",
    lang: "ja",
    dashboard: "ダッシュボード",
    recent: "最近の注文",
    shipped: "発送済み",
    delivered: "配達から3日",
    untracked: "発送済みの注文1件に追跡番号がありません",
    showing: /^\d件中 1〜\d件$/,
    markDelivered: "配達済みにする",
    usual: "amazon.de では発送から通常2日",
  },
  {
    locale: "fr-FR",
    lang: "fr",
    dashboard: "Tableau de bord",
    recent: "Commandes récentes",
    shipped: "Expédiée",
    delivered: "Livrée il y a 3 jours",
    untracked: "1 commande expédiée n'a pas de suivi",
    showing: /^1 à \d sur \d résultats$/,
    markDelivered: "Marquer comme livrée",
    usual: "2 jours après l'expédition, l'habitude sur amazon.de",
  },
  {
    locale: "es-ES",
    lang: "es",
    dashboard: "Panel",
    recent: "Pedidos recientes",
    shipped: "Enviado",
    delivered: "3 días desde la entrega",
    untracked: "1 pedido enviado no tiene seguimiento",
    showing: /^Mostrando 1–\d de \d resultados$/,
    markDelivered: "Marcar como entregado",
    usual: "2 días tras el envío es lo habitual en amazon.de",
  },
  {
    locale: "it-IT",
    lang: "it",
    dashboard: "Dashboard",
    recent: "Ordini recenti",
    shipped: "Spedito",
    delivered: "3 giorni dalla consegna",
    untracked: "1 ordine spedito non ha tracciamento",
    showing: /^1–\d di \d risultati$/,
    markDelivered: "Segna come consegnato",
    usual: "2 giorni dopo la spedizione è la norma su amazon.de",
  },
] as const;

for (const l of LANGUAGES) {
  test.describe(`a ${l.lang} browser on a phone in dark mode`, () => {
    test.use({ locale: l.locale, colorScheme: "dark", viewport: { width: 390, height: 844 } });

    test("the dashboard, the orders list and the cards are in its language", async ({
      page,
      request,
    }) => {
      const user = await createUser(request, { displayname: "Vera Vine" });
      await seed(request, user.token);
      await signInWithToken(page, user.token, "/");
      const main = page.getByRole("main");

      await expect(main.getByRole("heading", { name: l.dashboard, level: 1 })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", l.lang);
      await expect(main.getByRole("heading", { name: l.recent })).toBeVisible();
      await expect(main.locator(".status-card-title").nth(1)).toHaveText(l.shipped);
      await expect(main.locator(".order-card").first()).toBeVisible();
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${l.lang}-dashboard`);

      await page.goto("/orders?status=all");
      await expect(main.getByText(l.untracked)).toBeVisible();
      await expect(main.locator(".pagination-summary")).toHaveText(l.showing);
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${l.lang}-orders`);

      await main
        .getByRole("button", { name: new RegExp(`^${l.markDelivered} ?: Gartenkniebank$`) })
        .click();
      const dialog = page.getByRole("dialog", { name: l.markDelivered });
      await expect(dialog).toContainText(l.usual);
      expectNone(await dialog.innerText(), [
        "Mark delivered",
        "Delivered on",
        "Suggested",
        "shipped",
        "Cancel",
      ]);
      await shot(page, `${l.lang}-mark-delivered`, false);
      await dialog.getByRole("button", { name: l.markDelivered }).click();
      await expect(dialog).toBeHidden();

      await page.goto("/orders?status=Received");
      await expect(main.getByText(l.delivered)).toBeVisible();
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${l.lang}-orders-received`);

      await page.goto("/orders?status=Shipped");
      await expect(main.locator(".order-card").first()).toBeVisible();
      await expectNoEnglish(page);
      await expectFitsPhone(page);
      await shot(page, `${l.lang}-orders-shipped`);
    });
  });
}
