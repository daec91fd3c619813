/**
 * Money in its own currency, in Chromium: a UK order read from Amazon mail shows in
 * pounds and a French one added by hand in euros, side by side on the dashboard; the Average
 * Value keeps each currency apart; the Profile tab shows the Vine marketplace the mail taught.
 */
import { LOCALE_CASES } from "../test/fixtures/mail/locale-cases.ts";
import { raw } from "../test/fixtures/mail/locales.ts";
import { expect, test } from "./support/orders.ts";

test("a UK order in pounds and a French one in euros, side by side", async ({
  page,
  request,
  signedInUser: user,
  dashboard,
  addOrder,
  shell,
}) => {
  const auth = { Authorization: `Bearer ${user.token}` };
  // Every Amazon order, not only Vine ones: the UK mail is a paid order (£19.99).
  const mode = await request.put("/api/imap/import-mode", {
    headers: auth,
    data: { importMode: "all" },
  });
  expect(mode.status()).toBe(200);
  const base = LOCALE_CASES.find((c) => c.id === "uk-ordered-paid-multi");
  const first = base?.orders[0]?.items[0];
  if (!base || !first) throw new Error("fixture");
  const uk = { ...base, id: "e2e-uk", orders: [{ number: "202-5550909-2203349", items: [first] }] };
  const imported = await request.post("/api/imap/import", {
    headers: auth,
    multipart: {
      files: { name: "uk.eml", mimeType: "message/rfc822", buffer: Buffer.from(raw(uk), "utf8") },
    },
  });
  expect(imported.status(), await imported.text()).toBe(200);
  expect(await imported.json()).toMatchObject({ ordersCreated: 1 });

  // The mail made the user's marketplace the UK: Add Order starts in pounds.
  await page.goto("/orders/new");
  await expect(addOrder.heading).toBeVisible();
  await expect(addOrder.currency).toHaveValue("GBP");
  await expect(addOrder.value).toHaveAccessibleName("Estimated value (£)");
  await addOrder.productName.fill("Bouilloire électrique en verre 1,7 L");
  await addOrder.asin.fill("B0FRKETTLE");
  await addOrder.currency.selectOption("EUR");
  await expect(addOrder.value).toHaveAccessibleName("Estimated value (€)");
  await addOrder.value.fill("34.90");
  await addOrder.submit.click();
  await shell.expectToast("Order added");

  await expect(page).toHaveURL("/");
  await expect(dashboard.card(first.name)).toContainText("£19.99");
  await expect(dashboard.card("Bouilloire électrique en verre 1,7 L")).toContainText("€34.90");
  await expect(dashboard.card(first.name)).not.toContainText("$");
  // Averages per currency: pounds (the user's) first, euros beside them, never added.
  await expect(dashboard.statValue("Average Value")).toHaveText("£19.99");
  await expect(
    dashboard.stats.getByRole("article").filter({ hasText: "Average Value" }),
  ).toContainText("€34.90");
  await page.screenshot({ path: test.info().outputPath("currency-dashboard.png"), fullPage: true });

  // The Profile tab names the marketplace the mail taught.
  await page.goto("/account");
  await expect(page.getByLabel("Marketplace")).toHaveValue("UK");
});

test("Highest / Lowest Value say they sort by currency, then amount: ¥4,990 is never above €129.99", async ({
  page,
  request,
  signedInUser: user,
  ordersPage,
}) => {
  for (const [name, value, currency] of [
    ["Yen Kettle", "4990", "JPY"],
    ["Euro Lamp", "129.99", "EUR"],
    ["Euro Mug", "5", "EUR"],
  ] as const) {
    const res = await request.post("/api/orders", {
      headers: { Authorization: `Bearer ${user.token}` },
      data: { productname: name, asin: "B0CURSORT1", estimatedretailvalue: value, currency },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto("/orders?status=all");
  await ordersPage.sort.selectOption("Highest Value (by currency)");
  await expect(page).toHaveURL("/orders?status=all&sort=value-desc");
  await expect(ordersPage.cards.getByRole("heading")).toHaveText([
    "Euro Lamp",
    "Euro Mug",
    "Yen Kettle",
  ]);
  await ordersPage.sort.selectOption("Lowest Value (by currency)");
  await expect(ordersPage.cards.getByRole("heading")).toHaveText([
    "Euro Mug",
    "Euro Lamp",
    "Yen Kettle",
  ]);
});
