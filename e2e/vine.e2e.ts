/**
 * The Vine page in Chromium: the dashboard card, the standing cards, awaiting approval
 * with links, ETV per year and its CSV export, live updates over the event stream, the Itemized
 * Report import, the settings and evaluation, and Edit Order's "Can't review" with its message.
 */
import fs from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { REPORT_HEADERS } from "../src/contract/vine-constants.ts";
import { buildXlsx } from "../test/support/xlsx.ts";
import { VinePage } from "./pages/VinePage.ts";
import { test as base, createOrderApi, expect, orderNumber } from "./support/orders.ts";

const test = base.extend<{ vine: VinePage }>({
  vine: async ({ page }, use) => use(new VinePage(page)),
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const year = new Date().getUTCFullYear();

async function setup(request: APIRequestContext, token: string, settings: Record<string, unknown>) {
  expect(
    (
      await request.patch("/api/user/timezone", { headers: auth(token), data: { timezone: "UTC" } })
    ).status(),
  ).toBe(200);
  const res = await request.put("/api/user/vine-settings", {
    headers: auth(token),
    data: settings,
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("standing, awaiting approval, ETV, export, live updates and the Itemized Report import", async ({
  page,
  request,
  signedInUser: user,
  shell,
  dashboard: _dashboard,
  vine,
  editOrder,
}) => {
  await setup(request, user.token, { tier: "Gold" });
  const today = new Date().toISOString();
  const approved = await createOrderApi(request, user.token, {
    productname: "Garden Hose",
    asin: "B0VINE0001",
    amazonordernumber: orderNumber(),
    dateordered: today,
    status: "Review Approved",
    estimatedretailvalue: "10.00",
  });
  await createOrderApi(request, user.token, {
    productname: "Desk Fan",
    asin: "B0VINE0002",
    dateordered: today,
    status: "Received",
    estimatedretailvalue: "5.00",
  });
  const oldLamp = await createOrderApi(request, user.token, {
    productname: "Old Lamp",
    asin: "B0VINE0003",
    dateordered: today,
    status: "Review Submitted",
    datereviewsubmitted: ago(8),
    estimatedretailvalue: "20.00",
  });
  await createOrderApi(request, user.token, {
    productname: "New Mug",
    asin: "B0VINE0004",
    dateordered: today,
    status: "Review Submitted",
    datereviewsubmitted: ago(2),
  });
  await createOrderApi(request, user.token, {
    productname: "Canceled Kettle",
    asin: "B0VINE0005",
    dateordered: today,
    status: "Canceled",
    estimatedretailvalue: "99.00",
  });

  // The dashboard's compact card.
  await page.reload();
  const card = page.locator(".vine-stat-card");
  // As Vine counts it now: 1 approved of 4 delivered (two reviews wait for approval).
  await expect(card.locator(".stat-value")).toHaveText("25%");
  await expect(card).toContainText("1 approved of 4 delivered, last 90 days (minimum 60%)");
  await expect(card).toContainText("2 more approved reviews reach 60%");
  await expect(card).toContainText("75% once 2 pending reviews are approved");
  await expect(card).toContainText("Review Rate counts submitted reviews of every order");
  await expect(card).toContainText("4 of 8 ordered today");

  await shell.choose("Vine");
  await expect(page).toHaveURL(/\/vine$/);
  await expect(vine.heading).toBeVisible();
  await expect(vine.gauge).toHaveAttribute("aria-label", "Review rate 25%, minimum 60%");
  await expect(vine.rateCard).toContainText("1 approved of 4 delivered in the last 90 days");
  await expect(vine.rateCard).toContainText("75% once 2 pending reviews are approved");
  await expect(vine.todayCard).toContainText("4 of 8");
  await expect(vine.todayCard).toContainText("4 more can be ordered today");
  await expect(vine.evaluationCard).toContainText("Enter the start of your evaluation period");

  // Awaiting approval: oldest first, each a link to its order.
  await expect(vine.awaitingCard.locator(".stat-value")).toHaveText("2");
  await expect(vine.awaitingCard).toContainText("oldest submitted 8 days ago");
  await expect(vine.awaitingCard.getByRole("listitem")).toHaveText([
    /^Old Lamp · 1 week ago/,
    /^New Mug · 2 days ago/,
  ]);
  await vine.awaitingCard.getByRole("link", { name: "Old Lamp" }).click();
  await expect(editOrder.heading).toBeVisible();
  await expect(page).toHaveURL(
    new RegExp(`/orders/${oldLamp.orderid}/edit\\?from=%2Fvine&section=review$`),
  );
  await expect(editOrder.cancel).toHaveText("Cancel & Return to Vine");
  await editOrder.cancel.click();
  await expect(vine.heading).toBeVisible();

  // ETV of the year: canceled left out of the total, counted apart; a bar per month.
  const etv = vine.etvYear(year);
  await expect(etv.locator(".stat-value")).toHaveText("$35.00");
  await expect(etv).toContainText("4 orders · 1 canceled (not counted)");
  const month = new Date().toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  await expect(etv.getByRole("img")).toHaveAttribute(
    "aria-label",
    new RegExp(`${month} \\$35\\.00`),
  );

  const downloading = page.waitForEvent("download");
  await etv.getByRole("button", { name: `Export ${year} CSV` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`grapevine-etv-${year}.csv`);
  const csv = await fs.readFile(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "Order Number,ASIN,Product,Order Date,Status,Canceled,ETV,Currency",
  );
  expect(csv).toContain("Canceled Kettle,");
  expect(csv).toContain(`Total ${year} (without canceled orders),,,,,,35.00,USD`);

  // Live: an order added elsewhere shows up without a reload.
  await createOrderApi(request, user.token, {
    productname: "Phone Case",
    asin: "B0VINE0006",
    dateordered: new Date().toISOString(),
    estimatedretailvalue: "1.50",
  });
  await expect(vine.todayCard).toContainText("5 of 8");
  await expect(etv.locator(".stat-value")).toHaveText("$36.50");

  // The Itemized Report: Amazon's ETV for a known order, and an order we did not have.
  const xlsx = buildXlsx([
    [`Itemized Report ${year}`],
    [...REPORT_HEADERS],
    [approved.amazonordernumber, "B0VINE0001", "Garden Hose", "ORDER", new Date(), null, null, 12],
    [orderNumber(), "B0VINE0007", "Bird Feeder", "ORDER", new Date(), new Date(), null, 7.25],
  ]);
  await vine.importFile.setInputFiles({
    name: `Itemized Report ${year}.xlsx`,
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: Buffer.from(xlsx),
  });
  await vine.importButton.click();
  await shell.expectToast("Itemized Report imported");
  // Every row in one bucket, and where the headers and dates were read.
  await expect(vine.importSummary.locator("p").first()).toHaveText(
    "2 rows read: 1 added, 1 updated, 0 canceled, 0 unchanged, 0 skipped.",
  );
  await expect(vine.importSummary.locator("p").nth(1)).toHaveText(
    "Headers on row 2; dates read as Excel dates.",
  );
  await expect(etv.locator(".stat-value")).toHaveText("$45.75");

  // A file that is not the report: the server's sentence, nothing imported.
  await vine.importFile.setInputFiles({
    name: "orders.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("name,price\nsocks,3\n"),
  });
  await vine.importButton.click();
  await expect(vine.importError).toContainText("This file is not an Amazon Vine Itemized Report");
  await expect(etv.locator(".stat-value")).toHaveText("$45.75");

  await vine.definitions.locator("summary").click();
  await expect(vine.definitions).toContainText(
    "as Vine's account page counts it since 2025: reviews Vine approved over items delivered",
  );
  await expect(vine.definitions).toContainText("You use the 2025 rule.");
});

test("settings: the evaluation period and Gold progress; a refused value says why", async ({
  page,
  request,
  signedInUser: user,
  shell,
  vine,
}) => {
  await setup(request, user.token, { tier: "Silver" });
  const today = new Date().toISOString();
  for (const [name, status] of [
    ["Tent", "Review Approved"],
    ["Lamp", "Received"],
    ["Rug", "Received"],
  ] as const) {
    await createOrderApi(request, user.token, {
      productname: name,
      asin: "B0VINE0100",
      dateordered: today,
      status,
    });
  }
  await vine.goto();
  await vine.settings.locator("summary").click();
  await vine.settings.getByLabel("Evaluation period start day").fill(`${year}-01-01`);
  await vine.settings.getByLabel("Evaluation period end day").fill(`${year}-12-31`);
  await vine.settings.getByLabel(/Gold: reviews needed/).fill("2");
  await vine.settings.getByRole("button", { name: "Save Vine Settings" }).click();
  await shell.expectToast("Vine settings saved");
  // 3 delivered, 1 approved; 90% of 3 → 3 reviews: 2 more; the two received ones reach it.
  await expect(vine.evaluationCard).toContainText(`Jan 1, ${year} 00:00 – Dec 31, ${year} 23:59`);
  await expect(vine.evaluationCard).toContainText(`Review 2 more by Dec 31, ${year}`);
  await expect(vine.evaluationCard).toContainText("On track for Gold");
  await expect(vine.evaluationCard).toContainText("Reviews: 1 of 2");

  await vine.settings.getByLabel(/Minimum review rate/).fill("150");
  await vine.settings.getByRole("button", { name: "Save Vine Settings" }).click();
  // The form's own name for the field, not the API's.
  await shell.expectToast('"Minimum review rate" must be a whole number from 1 to 100');
  await page.reload();
  await vine.settings.locator("summary").click();
  await expect(vine.settings.getByLabel(/Minimum review rate/)).toHaveValue("60");
});

test("the standing as Vine counts it: rounded down, pending, to the minimum, the older rule, the period's projection, the 1099-NEC line", async ({
  request,
  signedInUser: user,
  shell,
  vine,
}) => {
  await setup(request, user.token, { tier: "Silver" });
  const now = new Date().toISOString();
  for (let i = 0; i < 8; i++) {
    await createOrderApi(request, user.token, {
      productname: `Approved ${i}`,
      asin: "B0VINE0300",
      dateordered: now,
      status: "Review Approved",
      estimatedretailvalue: i === 0 ? "100.00" : null,
    });
  }
  await createOrderApi(request, user.token, {
    productname: "Pending",
    asin: "B0VINE0301",
    dateordered: now,
    status: "Review Submitted",
  });
  await vine.goto();
  // 8 of 9 = 88.9%: Vine shows 88 (rounded down), not 89.
  await expect(vine.gauge).toHaveAttribute("aria-label", "Review rate 88%, minimum 60%");
  await expect(vine.rateCard).toContainText(
    "8 approved of 9 delivered in the last 90 days (88.8%, rounded down)",
  );
  await expect(vine.rateCard).toContainText("100% once 1 pending review is approved");
  // The ETV card: where the year's USD total stands against the year's 1099-NEC threshold.
  const threshold = year >= 2026 ? "$2,000" : "$600";
  await expect(vine.etvYear(year)).toContainText(
    `$100.00 of the ${threshold} 1099-NEC reporting threshold for ${year}`,
  );
  await expect(vine.etvYear(year)).toContainText("Information only, not tax advice.");

  await vine.settings.locator("summary").click();
  await vine.settings.getByLabel(/Minimum review rate/).fill("95");
  // A period that started a month ago at 08:00, without an end: six months.
  const start = new Date(Date.now() - 30 * DAY).toISOString().slice(0, 10);
  await vine.settings.getByLabel("Evaluation period start day").fill(start);
  await vine.settings.getByLabel("Evaluation period start time").fill("08:00");
  await vine.settings.getByRole("button", { name: "Save Vine Settings" }).click();
  await shell.expectToast("Vine settings saved");
  await expect(vine.rateCard).toContainText("1 more approved review reaches 95%");
  await expect(vine.evaluationCard).toContainText("08:00 – ");
  await expect(vine.evaluationCard).toContainText("six months from the start");
  await expect(vine.evaluationCard).toContainText("At your pace so far, by ");

  // The older rule: submitted or approved over ordered: 9 of 9.
  await vine.settings.getByLabel("Review rate rule").selectOption({ label: "Before 2025" });
  await vine.settings.getByRole("button", { name: "Save Vine Settings" }).click();
  await shell.expectToast("Vine settings saved");
  await expect(vine.gauge).toHaveAttribute("aria-label", "Review rate 100%, minimum 95%");
  await expect(vine.rateCard).toContainText("9 reviewed of 9 ordered");
  await vine.definitions.locator("summary").click();
  await expect(vine.definitions).toContainText("You use the older rule.");
});

test("Edit Order: can't review, with a ready-to-copy message; exempt orders leave the rate", async ({
  page,
  request,
  signedInUser: user,
  shell,
  editOrder,
  vine,
}) => {
  await setup(request, user.token, { tier: "Silver" });
  const number = orderNumber();
  const order = await createOrderApi(request, user.token, {
    productname: "Solar Lantern",
    asin: "B0VINE0200",
    amazonordernumber: number,
    dateordered: new Date().toISOString(),
    status: "Received",
  });
  await createOrderApi(request, user.token, {
    productname: "Reviewed Thing",
    asin: "B0VINE0201",
    dateordered: new Date().toISOString(),
    status: "Review Approved",
  });
  await vine.goto();
  await expect(vine.gauge).toHaveAttribute("aria-label", "Review rate 50%, minimum 60%");

  await page.goto(`/orders/${order.orderid}/edit?from=%2Fvine&section=review`);
  await expect(editOrder.heading).toBeVisible();
  const reason = editOrder.main.getByLabel("Reason");
  await reason.selectOption({ label: "Arrived damaged" });
  await editOrder.main.getByLabel("Note").fill("The glass was broken");
  const message = editOrder.main.getByRole("textbox", { name: "Message to Vine support" });
  await expect(message).toHaveValue(new RegExp(`Order number: ${number}`));
  await expect(message).toHaveValue(/ASIN: B0VINE0200/);
  await expect(message).toHaveValue(/Product: Solar Lantern/);
  await expect(message).toHaveValue(/Reason: Arrived damaged/);
  await expect(message).toHaveValue(/Details: The glass was broken/);
  await editOrder.main.getByRole("button", { name: "Copy message to Vine support" }).click();
  await shell.expectToast("Copied to clipboard");
  await editOrder.main.getByLabel(/Vine support removed it from my review list/).check();
  await editOrder.save.click();
  await shell.expectToast("Order updated successfully");

  await page.reload();
  await expect(editOrder.heading).toBeVisible();
  await editOrder.reviewTab.click();
  await expect(editOrder.main.getByLabel("Reason")).toHaveValue("damaged");
  await expect(editOrder.main.getByLabel(/Vine support removed it/)).toBeChecked();

  await vine.goto();
  await expect(vine.gauge).toHaveAttribute("aria-label", "Review rate 100%, minimum 60%");
});
