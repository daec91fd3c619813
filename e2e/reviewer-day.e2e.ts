/**
 * A reviewer's real day in the browser: Mark delivered for report orders nobody
 * tracks, Write review on Amazon on the order's own site, the delivery date,
 * unsaved review text kept, ASIN search and decimal commas, Update Tracking only where a
 * look-up exists and Vine settings errors in the form's words, the user menu with a long
 * name on a phone, the privacy page on alert channels. Screens are shot for people when
 * E2E_SHOTS_DIR is set.
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import type { Order } from "../src/contract/index.ts";
import { REPORT_HEADERS } from "../src/contract/vine-constants.ts";
import { buildXlsx } from "../test/support/xlsx.ts";
import { createUser, signInWithToken } from "./support/api.ts";
import { createOrderApi, expect, getOrderApi, orderNumber, test } from "./support/orders.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;
/** Screenshots for people to look at (E2E_SHOTS_DIR=/tmp/shots); nothing when unset. */
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function setMarketplace(
  request: import("@playwright/test").APIRequestContext,
  token: string,
  vineMarketplace: string,
) {
  const res = await request.put("/api/user/marketplace", {
    headers: auth(token),
    data: { vineMarketplace },
  });
  expect(res.status()).toBe(200);
}

const day = (s: string) => new Date(`${s}T00:00:00.000Z`);

test("report orders shipped without tracking: shown apart, Mark delivered one, then all", async ({
  page,
  request,
  signedInUser: user,
  ordersPage,
  shell,
}) => {
  await setMarketplace(request, user.token, "DE");
  const report = buildXlsx([
    [...REPORT_HEADERS],
    [
      orderNumber(),
      "B0UNTRACK1",
      "Garden Kneeler",
      "ORDER",
      day("2026-09-01"),
      day("2026-09-02"),
      null,
      25,
    ],
    [
      orderNumber(),
      "B0UNTRACK2",
      "Bird Feeder",
      "ORDER",
      day("2026-09-03"),
      day("2026-09-04"),
      null,
      30,
    ],
  ]);
  const imported = await request.post("/api/vine/itemized-report", {
    headers: auth(user.token),
    multipart: {
      file: {
        name: "Itemized Report.xlsx",
        mimeType: "application/octet-stream",
        buffer: Buffer.from(report),
      },
    },
  });
  expect(imported.status()).toBe(200);
  // A parcel really in transit, with its tracking number.
  await createOrderApi(request, user.token, {
    productname: "Tracked Lamp",
    asin: "B0TRACKED1",
    trackingnumber: "1Z999AA10123456784",
  });

  await page.goto("/orders?status=Shipped");
  await expect(ordersPage.main.getByText("2 shipped orders have no tracking")).toBeVisible();
  await expect(ordersPage.card("Garden Kneeler").getByText("Not tracked")).toBeVisible();
  await expect(ordersPage.card("Tracked Lamp").getByText("Not tracked")).toHaveCount(0);
  await shot(page, "orders-untracked");

  // One order: the dialog proposes the shipped day plus Germany's usual 2 days.
  await ordersPage
    .card("Garden Kneeler")
    .getByRole("button", { name: /^Mark delivered: / })
    .click();
  const dialog = page.getByRole("dialog", { name: "Mark delivered" });
  await expect(dialog.getByLabel("Delivered on")).toHaveValue("2026-09-04");
  await expect(dialog).toContainText("2 days after shipping is usual on amazon.de");
  await shot(page, "mark-delivered-dialog");
  await dialog.getByRole("button", { name: "Mark delivered" }).click();
  await shell.expectToast("Marked delivered");
  await expect(ordersPage.main.getByText("1 shipped order has no tracking")).toBeVisible();

  // All at once, on one chosen day.
  await ordersPage.main.getByRole("button", { name: "Mark all delivered…" }).click();
  const all = page.getByRole("dialog", { name: "Mark all delivered" });
  await expect(all).toContainText("Bird Feeder");
  await expect(all).toContainText("(2 days, amazon.de)");
  await all.getByLabel("All on one day").check();
  await all.getByLabel("Delivered on").fill("2026-09-09");
  await all.getByRole("button", { name: "Mark 1 delivered" }).click();
  await shell.expectToast("Marked delivered");
  await expect(ordersPage.main.getByText(/shipped orders? ha(s|ve) no tracking/)).toHaveCount(0);

  const orders = (await (
    await request.get("/api/orders?status=Received&sort=oldest", { headers: auth(user.token) })
  ).json()) as Order[];
  expect(orders.map((o) => [o.productname, o.datedelivered])).toEqual([
    ["Garden Kneeler", "2026-09-04"],
    ["Bird Feeder", "2026-09-09"],
  ]);
});

test("Write review on Amazon, View Product Page and View on Amazon open the order's marketplace", async ({
  page,
  request,
  signedInUser: user,
  ordersPage,
  editOrder,
}) => {
  await setMarketplace(request, user.token, "FR");
  const order = await createOrderApi(request, user.token, {
    productname: "Theière en fonte",
    asin: "B0THEIERE1",
    status: "Received",
    estimatedretailvalue: "39.90",
  });
  await page.goto("/orders?status=Received");
  await expect(
    ordersPage.card("Theière en fonte").getByRole("link", { name: /^Write review on Amazon: / }),
  ).toHaveAttribute("href", "https://www.amazon.fr/review/create-review?asin=B0THEIERE1");

  await editOrder.goto(order.orderid, "/orders?status=Received");
  // No product URL: the ASIN's page on the order's site.
  await expect(editOrder.viewProductPage).toHaveAttribute(
    "href",
    "https://www.amazon.fr/dp/B0THEIERE1",
  );
  await editOrder.openTab("Review");
  await expect(editOrder.writeReview).toHaveAttribute(
    "href",
    "https://www.amazon.fr/review/create-review?asin=B0THEIERE1",
  );
  await request.put(`/api/orders/${order.orderid}`, {
    headers: auth(user.token),
    data: { status: "Review Approved", reviewreference: "R3FRANCE42" },
  });
  await page.reload();
  await editOrder.openTab("Review");
  await expect(editOrder.viewOnAmazon).toHaveAttribute(
    "href",
    "https://www.amazon.fr/review/R3FRANCE42",
  );
});

test("the delivery date: today when marked Received on Add Order, corrected on Edit Order", async ({
  page,
  request,
  signedInUser: user,
  addOrder,
  editOrder,
  shell,
}) => {
  await page.goto("/orders/new?from=/orders");
  await addOrder.productName.fill("Camping Stove");
  await addOrder.asin.fill("B0STOVE001");
  await expect(addOrder.dateDelivered).toHaveValue("");
  await addOrder.status.selectOption("Received");
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });
  await expect(addOrder.dateDelivered).toHaveValue(today);
  await page.getByRole("main").getByLabel("Date ordered").fill("2026-10-30");
  await addOrder.dateDelivered.fill("2026-11-02");
  await addOrder.submit.click();
  await shell.expectToast("Order added");
  const list = (await (
    await request.get("/api/orders?q=Camping", { headers: auth(user.token) })
  ).json()) as Order[];
  expect(list.map((o) => [o.status, o.datedelivered])).toEqual([["Received", "2026-11-02"]]);

  await editOrder.goto(list[0]!.orderid, "/orders");
  await editOrder.openTab("Shipping");
  await expect(editOrder.dateDelivered).toHaveValue("2026-11-02");
  await editOrder.dateDelivered.fill("2026-11-04");
  await editOrder.save.click();
  await shell.expectToast("Order updated successfully");
  expect((await getOrderApi(request, user.token, list[0]!.orderid)).datedelivered).toBe(
    "2026-11-04",
  );
});

test("unsaved review text survives the header's back arrow and the browser's back", async ({
  page,
  request,
  signedInUser: user,
  editOrder,
  shell,
}) => {
  const order = await createOrderApi(request, user.token, {
    productname: "Wool Blanket",
    asin: "B0BLANKET1",
    status: "Received",
  });
  await editOrder.goto(order.orderid, "/", "review");
  await editOrder.text.fill("Warm, soft and large enough for two.");
  // The header's back arrow leaves the screen without saving…
  await shell.header.getByRole("link", { name: "Back to dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  // …and the next visit offers the text back.
  await editOrder.goto(order.orderid, "/", "review");
  await expect(editOrder.text).toHaveValue("");
  await expect(editOrder.main).toContainText("Your unsaved review from");
  await shot(page, "edit-order-draft");
  await editOrder.restoreDraft.click();
  await expect(editOrder.text).toHaveValue("Warm, soft and large enough for two.");

  // The browser's back: the same.
  await editOrder.text.fill("Warm and soft.");
  await page.goBack();
  await editOrder.goto(order.orderid, "/", "review");
  await editOrder.restoreDraft.click();
  await expect(editOrder.text).toHaveValue("Warm and soft.");
  await editOrder.save.click();
  await shell.expectToast("Order updated successfully");
  // Saved: nothing more is offered.
  await page.reload();
  await expect(editOrder.text).toHaveValue("Warm and soft.");
  await expect(editOrder.restoreDraft).toHaveCount(0);
});

test("an ASIN finds its order; 129,99 is read in euros; yen shows no decimals", async ({
  page,
  request,
  signedInUser: user,
  ordersPage,
  editOrder,
  shell,
}) => {
  await createOrderApi(request, user.token, { productname: "Espresso Cups", asin: "B0CUPS0042" });
  await createOrderApi(request, user.token, { productname: "Tea Towels", asin: "B0TOWEL042" });
  await page.goto("/orders?status=all");
  await ordersPage.search.fill("b0cups0042");
  await expect(ordersPage.card("Espresso Cups")).toBeVisible();
  await expect(ordersPage.card("Tea Towels")).toHaveCount(0);

  const euros = (await (
    await request.post("/api/orders", {
      headers: auth(user.token),
      data: { productname: "Moka Pot", asin: "B0MOKAPOT1", currency: "EUR" },
    })
  ).json()) as Order;
  await editOrder.goto(euros.orderid, "/orders");
  await editOrder.value.fill("129,99");
  await editOrder.save.click();
  await shell.expectToast("Order updated successfully");
  expect((await getOrderApi(request, user.token, euros.orderid)).estimatedretailvalue).toBe(
    "129.99",
  );

  const yen = (await (
    await request.post("/api/orders", {
      headers: auth(user.token),
      data: {
        productname: "Rice Cooker",
        asin: "B0RICE0001",
        currency: "JPY",
        estimatedretailvalue: "4990",
      },
    })
  ).json()) as Order;
  await editOrder.goto(yen.orderid, "/orders");
  await expect(editOrder.value).toHaveValue("4990");
  await editOrder.value.fill("4990.5");
  await editOrder.save.click();
  await expect(editOrder.main).toContainText(
    "Amounts in JPY have no decimals: write a whole number such as 4990",
  );
});

test("Update Tracking is offered only where this server can look the carrier up", async ({
  page,
  request,
  signedInUser: user,
  ordersPage,
  editOrder,
}) => {
  // DHL has tracking links only, no look-up: nothing to press that could only fail.
  const order = await createOrderApi(request, user.token, {
    productname: "Paket Lampe",
    asin: "B0DHLLAMP1",
    status: "Shipped",
    trackingnumber: "JJD000390007123456789",
    carrier: "DHL",
  });
  await page.goto("/orders?status=Shipped");
  const card = ordersPage.card("Paket Lampe");
  await expect(card.getByRole("button", { name: /^Update Tracking: / })).toBeDisabled();
  await expect(card).toContainText("Tracking look-ups for DHL are not set up on this server.");
  await editOrder.goto(order.orderid, "/orders?status=Shipped");
  await editOrder.openTab("Shipping");
  await expect(editOrder.updateTracking).toBeDisabled();
  await expect(editOrder.trackingLookupNote).toBeVisible();
  await expect(editOrder.main).not.toContainText("SHIP24_API_KEY");
});

test("Vine settings errors name the field as the form does", async ({
  page,
  signedInUser: _user,
  shell,
}) => {
  await page.goto("/vine");
  await page.getByText("Vine settings", { exact: true }).click();
  const field = page.getByLabel("Minimum review rate");
  await field.fill("101");
  await page.getByRole("button", { name: "Save Vine Settings" }).click();
  await expect(shell.toast(/"Minimum review rate" must be a whole number/)).toBeVisible();
  await expect(shell.toast(/rateMinimum/)).toHaveCount(0);
});

test.describe("on a phone in dark mode", () => {
  test.use({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });

  test("a long display name never pushes the user menu off the screen", async ({
    page,
    request,
    shell,
  }) => {
    const long = `Maximiliane Alexandra Konstantinopoulou-Wittgenstein ${Date.now()}`;
    const account = await createUser(request, { displayname: long });
    await signInWithToken(page, account.token, "/");
    await shell.openUserMenu();
    const name = shell.header.getByText(long, { exact: true });
    await expect(name).toBeVisible();
    const menu = shell.header.locator(".user-menu > ul");
    const box = await menu.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // Cut with an ellipsis, not wrapped or spilled.
    expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await name.evaluate((el) => getComputedStyle(el).textOverflow)).toBe("ellipsis");
    await shot(page, "phone-user-menu-long-name");
  });

  test("the privacy page says where alerts go and that a public ntfy topic is readable", async ({
    page,
  }) => {
    await page.goto("/privacy-policy");
    await expect(
      page.getByRole("heading", { name: "Alert channels (optional)", level: 2 }),
    ).toBeVisible();
    await expect(page.getByRole("main")).toContainText(
      "is readable by anyone who knows or guesses its name",
    );
    await expect(page.getByRole("main")).toContainText("Web Push:");
    await shot(page, "phone-privacy");
  });
});
