/**
 * Carrier tracking in the browser, against the fake UPS that e2e/support/server.ts starts beside
 * the app: a number saved on a dashboard card ships the order; the carrier then says delivered and
 * the dashboard's Shipped refresh, the list's Update All Tracking, a card's Update Tracking and
 * Edit Order's Update Tracking each make it Received, with the exact toasts of docs/messages.md. And the
 * Shipment Tracking tab: zone, daily time, Save Preferences, kept after a reload.
 *
 * Every test uses its own tracking numbers: the fake's scenarios are per number, for the whole run.
 */
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { TrackingControls, TrackingTab } from "./pages/TrackingPages.ts";
import { createOrderApi, expect, orderNumber, test } from "./support/orders.ts";

const SHOTS = process.env.E2E_SHOTS_DIR;
/** Screenshots for people to look at (E2E_SHOTS_DIR=/tmp/shots); nothing when unset. */
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

type Scenario = "in-transit" | "delivered" | "not-found" | "unauthorized";

/** Drives the fake carriers (POST {baseUrl}/__fake/scenario; the address is in e2e-carriers.json). */
async function carrierSays(
  request: APIRequestContext,
  number: string,
  scenario: Scenario,
  extra: { expectedDelivery?: string } = {},
) {
  const file = path.join(process.env.E2E_DATA_DIR ?? "", "e2e-carriers.json");
  const { baseUrl } = JSON.parse(fs.readFileSync(file, "utf8")) as { baseUrl: string };
  const res = await request.post(`${baseUrl}/__fake/scenario`, {
    data: { number, scenario, ...extra },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

let serial = 0;
/** A UPS number no other test uses, with a valid check digit (so it is detected as UPS). */
function upsNumber(): string {
  serial += 1;
  const pkg = `${(Date.now() + serial * 7919) % 10_000_000}`.padStart(7, "0");
  const body = `${String(process.pid % 1000).padStart(3, "0")}GV1` + `01${pkg}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    const v = /\d/.test(c) ? Number(c) : (c.charCodeAt(0) - 63) % 10;
    sum += i % 2 === 1 ? 2 * v : v;
  }
  return `1Z${body}${(10 - (sum % 10)) % 10}`;
}

/** "YYYY-MM-DD" n days from today, and how the app shows that day ("Dec 1, 2026"). */
function dayAhead(n: number): { iso: string; shown: string } {
  const d = new Date(Date.now() + n * 86_400_000);
  const iso = d.toISOString().slice(0, 10);
  const shown = new Date(`${iso}T12:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
  return { iso, shown };
}

test.describe("carrier tracking", () => {
  test("a number saved on a dashboard card ships the order; the Shipped refresh makes it Received", async ({
    page,
    request,
    signedInUser: user,
    dashboard,
    shell,
  }) => {
    const tracking = new TrackingControls(page);
    const name = "Ceramic Pour-Over Kettle";
    const number = upsNumber();
    const expected = dayAhead(5);
    await carrierSays(request, number, "in-transit", { expectedDelivery: expected.iso });
    await createOrderApi(request, user.token, {
      productname: name,
      asin: "B0KETTLE01",
      amazonordernumber: orderNumber(),
    });

    await dashboard.goto();
    await expect(dashboard.card(name)).toContainText("Ordered");
    // No Shipped orders: no refresh on the Shipped card.
    await dashboard.expectCount("Shipped", 0);
    await expect(tracking.shippedRefresh).toHaveCount(0);

    // Save on blur: the carrier is detected, the server asks UPS and gives the expected day.
    await dashboard.trackingButton(name).click();
    const editor = dashboard.trackingEditor(name);
    await editor.number.fill(number);
    await expect(editor.carrier).toHaveValue("UPS");
    await dashboard.heading.click();
    await expect(shell.toast("Tracking updated successfully")).toContainText(
      `Order marked as shipped. Expected delivery: ${expected.shown}`,
    );
    await expect(dashboard.card(name)).toContainText("Shipped");
    await expect(dashboard.card(name)).toContainText(number);
    await dashboard.expectCount("Shipped", 1);
    await expect(tracking.shippedRefresh).toBeVisible();
    await shot(page, "dashboard-shipped-refresh");
    if (SHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, "dashboard-shipped-refresh-phone");
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    // UPS now says delivered: the Shipped card's refresh checks every Shipped order.
    await carrierSays(request, number, "delivered");
    await tracking.shippedRefresh.click();
    await expect(shell.toast("Tracking Updated!")).toContainText(
      "1 order marked as delivered. Processed 1, successful 1.",
    );
    await expect(dashboard.card(name)).toContainText("Received");
    await dashboard.expectCount("Received", 1);
    await dashboard.expectCount("Shipped", 0);
    await expect(tracking.shippedRefresh).toHaveCount(0);
  });

  test("orders list under Shipped: Update All Tracking, then a card's Update Tracking", async ({
    page,
    request,
    signedInUser: user,
    ordersPage,
    shell,
  }) => {
    const tracking = new TrackingControls(page);
    const lamp = { name: "Brass Reading Lamp", number: upsNumber() };
    const mat = { name: "Cork Yoga Mat", number: upsNumber() };
    await carrierSays(request, lamp.number, "in-transit");
    await carrierSays(request, mat.number, "delivered");
    for (const [i, o] of [lamp, mat].entries()) {
      await createOrderApi(request, user.token, {
        productname: o.name,
        asin: `B0LISTTRK${i}`,
        amazonordernumber: orderNumber(),
        status: "Shipped",
        trackingnumber: o.number,
        carrier: "UPS",
      });
    }

    // Only under the Shipped filter.
    await ordersPage.goto("status=all");
    await expect(ordersPage.card(lamp.name)).toBeVisible();
    await expect(tracking.updateAll).toHaveCount(0);
    await ordersPage.goto("status=Shipped");
    await expect(ordersPage.cards).toHaveCount(2);
    await expect(tracking.updateAll).toBeVisible();
    await shot(page, "orders-shipped");

    await tracking.updateAll.click();
    await expect(shell.toast("Tracking Updated!")).toContainText(
      "1 order marked as delivered. Processed 2, successful 2.",
    );
    await expect(ordersPage.card(mat.name)).toHaveCount(0);
    await expect(ordersPage.cards).toHaveCount(1);

    // One card: still in transit, then delivered.
    await tracking.cardUpdate(lamp.name).click();
    await shell.expectToast("Tracking updated successfully!");
    await expect(ordersPage.card(lamp.name)).toBeVisible();
    await carrierSays(request, lamp.number, "delivered");
    await tracking.cardUpdate(lamp.name).click();
    await expect(shell.toast("Order delivered!")).toContainText(
      "Order status updated to 'Received'.",
    );
    await expect(ordersPage.empty).toBeVisible();
    await expect(tracking.updateAll).toHaveCount(0);

    await ordersPage.goto("status=Received");
    await expect(ordersPage.cards).toHaveCount(2);
  });

  test("Edit Order: an unknown number warns one second later; Update Tracking marks it Received", async ({
    page,
    request,
    signedInUser: user,
    editOrder,
    shell,
  }) => {
    const tracking = new TrackingControls(page);
    const number = upsNumber();
    await carrierSays(request, number, "not-found");
    const order = await createOrderApi(request, user.token, {
      productname: "Walnut Desk Organizer",
      asin: "B0DESKORG1",
      amazonordernumber: orderNumber(),
    });

    await editOrder.goto(order.orderid, "/orders?status=all");
    await editOrder.openTab("Shipping");
    await expect(editOrder.lastUpdated).toHaveText("Last updated: Never");
    await expect(tracking.editUpdateTracking).toHaveCount(0);
    await editOrder.trackingNumber.fill(number);
    await expect(editOrder.carrier).toHaveValue("UPS");
    // Update Tracking asks about the saved number: none yet.
    await expect(tracking.editUpdateTracking).toHaveCount(0);
    await editOrder.save.click();
    await expect(shell.toast("Tracking updated successfully")).toContainText(
      "Order marked as shipped with tracking information updated.",
    );
    // The server's warning follows one second later (docs/messages.md).
    await expect(shell.toast("Tracking information incomplete")).toContainText(
      "Could not get tracking information from UPS",
    );
    await expect(tracking.editUpdateTracking).toBeEnabled();
    await editOrder.openTab("Product");
    await expect(editOrder.status).toHaveValue("Shipped");

    // The carrier knows it now, delivered.
    await carrierSays(request, number, "delivered");
    await editOrder.openTab("Shipping");
    await tracking.editUpdateTracking.click();
    await expect(shell.toast("Tracking updated")).toContainText(
      "Order tracking information has been updated.",
    );
    await expect(editOrder.lastUpdated).not.toHaveText("Last updated: Never");
    await expect(editOrder.dateDelivered).not.toHaveValue("");
    await shot(page, "edit-order-shipping");
    await editOrder.openTab("Product");
    await expect(editOrder.status).toHaveValue("Received");
  });
});

test.describe("Shipment Tracking tab", () => {
  test.use({ timezoneId: "Europe/Paris" });

  test("zone and daily time are saved with 'Preferences Updated' and kept after a reload", async ({
    page,
    signedInUser: _user,
    shell,
  }) => {
    const tab = new TrackingTab(page);
    await tab.goto();
    // docs/screens.md order: …, Shipment Tracking, Email Configuration; short label 'Tracking'.
    const names = await page
      .getByRole("tablist", { name: "Account sections" })
      .getByRole("tab")
      .allInnerTexts();
    const labels = names.map((n) => n.trim());
    expect(labels[0]).toBe("Profile Information");
    expect(labels.indexOf("Shipment Tracking")).toBe(labels.indexOf("Email Configuration") - 1);
    await expect(tab.tab).toHaveAttribute("aria-selected", "true");
    await expect(tab.help).toBeVisible();

    // Defaults: the browser's zone (in the list), 9:00 AM; 48 half-hour choices in 12-hour time.
    await expect(tab.timezone).toHaveValue("Europe/Paris");
    await expect(tab.updateTime).toHaveValue("09:00");
    expect(await tab.chosenLabel(tab.updateTime)).toBe("9:00 AM");
    const times = await tab.updateTime.locator("option").allInnerTexts();
    expect(times).toHaveLength(48);
    expect(times.slice(0, 3)).toEqual(["12:00 AM", "12:30 AM", "1:00 AM"]);
    expect(times.at(-1)).toBe("11:30 PM");
    expect(await tab.timezone.locator("option").count()).toBe(13);
    await shot(page, "account-tracking-tab");

    await tab.timezone.selectOption("Asia/Tokyo");
    await tab.updateTime.selectOption("14:30");
    await tab.save.click();
    await shell.expectToast("Preferences Updated");

    await page.reload();
    await expect(tab.heading).toBeVisible();
    await expect(tab.timezone).toHaveValue("Asia/Tokyo");
    await expect(tab.updateTime).toHaveValue("14:30");
    expect(await tab.chosenLabel(tab.updateTime)).toBe("2:30 PM");
  });
});

test.describe("tracking answers in words", () => {
  test("Edit Order's Update Tracking shows the server's reason, not a fixed sentence", async ({
    page,
    request,
    signedInUser: user,
    editOrder,
    shell,
  }) => {
    const tracking = new TrackingControls(page);
    const number = upsNumber();
    await carrierSays(request, number, "unauthorized");
    const order = await createOrderApi(request, user.token, {
      productname: "Oak Bookend",
      asin: "B0BOOKEND1",
      amazonordernumber: orderNumber(),
      status: "Shipped",
      trackingnumber: number,
      carrier: "UPS",
    });
    await editOrder.goto(order.orderid, "/orders?status=all");
    await editOrder.openTab("Shipping");
    await tracking.editUpdateTracking.click();
    const toast = shell.toast("Update failed");
    await expect(toast).toContainText("UPS refused this server's credentials");
    await expect(toast).not.toContainText("Failed to update tracking information.");
  });

  test("Update All Tracking counts only what it looked up, and names the shipped orders without a number", async ({
    page,
    request,
    signedInUser: user,
    ordersPage,
    shell,
  }) => {
    const tracking = new TrackingControls(page);
    const number = upsNumber();
    await carrierSays(request, number, "in-transit");
    await createOrderApi(request, user.token, {
      productname: "Linen Napkins",
      asin: "B0NAPKIN01",
      amazonordernumber: orderNumber(),
      status: "Shipped",
      trackingnumber: number,
      carrier: "UPS",
    });
    await createOrderApi(request, user.token, {
      productname: "Amazon Parcel",
      asin: "B0AMZLOG01",
      amazonordernumber: orderNumber(),
      status: "Shipped",
      trackingnumber: "TBA123456789000",
      carrier: "AMAZON",
    });
    await createOrderApi(request, user.token, {
      productname: "Numberless Vase",
      asin: "B0NONUMB01",
      amazonordernumber: orderNumber(),
      status: "Shipped",
    });
    await ordersPage.goto("status=Shipped");
    await expect(ordersPage.cards).toHaveCount(3);
    await tracking.updateAll.click();
    const toast = shell.toast("Tracking Updated Successfully!");
    await expect(toast).toContainText("Checked 1 shipped order: 0 delivered, 1 still on the way.");
    await expect(toast).toContainText("Skipped 1 Amazon Logistics order");
    await expect(toast).toContainText(
      "1 shipped order has no tracking number: add one to have it checked.",
    );
  });
});
