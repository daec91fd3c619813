/**
 * The dashboard: header, status cards and their links, Recent Orders with inline tracking edit
 * (one card at a time, save on blur only when changed, the spec's toasts), and the stat cards.
 */
import { signInWithToken } from "./support/api.ts";
import { liveStreamOpened } from "./support/live.ts";
import { createOrderApi, expect, test, UPS_NUMBER } from "./support/orders.ts";

test("an empty dashboard: header, status cards, empty Recent Orders, stat cards", async ({
  page,
  signedInUser: _user,
  dashboard,
}) => {
  await expect(dashboard.lastUpdate).toBeVisible();
  await expect(dashboard.allOrders).toHaveAttribute("href", "/orders?status=all");
  await expect(dashboard.addOrder).toHaveAttribute("href", "/orders/new");
  await expect(dashboard.statusCards.getByRole("link")).toHaveCount(6);
  await expect(dashboard.statusCard("Ordered")).toHaveAccessibleName("Ordered: 0, Not Shipped");
  await expect(dashboard.statusCard("Shipped")).toHaveAccessibleName("Shipped: 0, In Transit");
  await expect(dashboard.statusCard("Received")).toHaveAccessibleName(
    "Received: 0, Ready for Review",
  );
  await expect(dashboard.statusCard("Review Submitted")).toHaveAccessibleName(
    "Review Submitted: 0, Waiting for Approval",
  );
  await expect(dashboard.statusCard("Review Rejected")).toHaveAccessibleName(
    "Review Rejected: 0, Rewrite Review",
  );
  await expect(dashboard.statusCard("Review Approved")).toHaveAccessibleName(
    "Review Approved: 0, All Done!",
  );
  // No tracking refresh button yet (carrier look-ups come later); without a mailbox the Emails
  // Scanned card offers to connect one.
  await expect(dashboard.main.getByRole("button", { name: /refresh/i })).toHaveCount(0);
  await expect(dashboard.main.getByText("Emails Scanned")).toHaveCount(1);
  await expect(dashboard.main.getByRole("link", { name: "Connect your mailbox" })).toBeVisible();

  await expect(dashboard.emptyRecent).toBeVisible();
  await expect(dashboard.statValue("This Month")).toHaveText("0");
  await expect(dashboard.statValue("Average Value")).toHaveText("$0.00");
  await expect(dashboard.statValue("Review Rate")).toHaveText("0%");
  await expect(dashboard.stats).toContainText("orders received");
  await expect(dashboard.stats).toContainText("per order");
  await expect(dashboard.stats).toContainText("orders reviewed");

  await dashboard.statusCard("Review Submitted").click();
  await expect(page).toHaveURL("/orders?status=Review%20Submitted");
  const filter = page.getByRole("combobox", { name: "Status filter" });
  await expect(filter).toHaveValue("Review Submitted");
});

test("a live order change updates the header's last-update time", async ({
  request,
  user,
  page,
  dashboard,
}) => {
  const opened = liveStreamOpened(page, user.token);
  await signInWithToken(page, user.token, "/");
  await opened;
  await expect(dashboard.lastUpdate).toHaveText(/^Last update/);
  await createOrderApi(request, user.token, { productname: "Arrives Live", asin: "B0LIVE0001" });
  await expect(dashboard.lastUpdate).toHaveText(/^Last update: Just now/);
  await expect(dashboard.card("Arrives Live")).toBeVisible();
});

test("the last-update line tells when the data was last refreshed, and moves on while the stream is quiet", async ({
  request,
  user,
  page,
  dashboard,
}) => {
  await page.clock.install();
  const opened = liveStreamOpened(page, user.token);
  await signInWithToken(page, user.token, "/");
  await opened;
  // The first load counts as an update: never "Waiting for updates" with the stream connected.
  await expect(dashboard.lastUpdate).toHaveText("Last update: Just now · live updates on");
  await page.clock.fastForward("03:00");
  await expect(dashboard.lastUpdate).toHaveText("Last update: 3m ago · live updates on");
  // An event from the stream (an order added elsewhere) refreshes it.
  await createOrderApi(request, user.token, { productname: "Quiet Lamp", asin: "B0QUIET001" });
  await expect(dashboard.card("Quiet Lamp")).toBeVisible();
  await expect(dashboard.lastUpdate).toHaveText("Last update: Just now · live updates on");
});

test("inline tracking edit on a card: one at a time, saved on blur only when changed", async ({
  request,
  user,
  page,
  dashboard,
  editOrder,
  shell,
}) => {
  await createOrderApi(request, user.token, { productname: "Desk Fan", asin: "B0FAN00001" });
  await createOrderApi(request, user.token, { productname: "Door Stop", asin: "B0DOOR0001" });
  await signInWithToken(page, user.token, "/");
  await expect(dashboard.recentCards).toHaveCount(2);

  // Opening the editor blocks the other card.
  await dashboard.trackingButton("Desk Fan").click();
  const editor = dashboard.trackingEditor("Desk Fan");
  await expect(editor.number).toBeFocused();
  await expect(dashboard.trackingButton("Door Stop")).toBeDisabled();
  await expect(dashboard.card("Door Stop")).toHaveAttribute("aria-disabled", "true");

  // Leaving without a change just closes it: no save, no toast.
  await dashboard.heading.click();
  await expect(editor.root).toHaveCount(0);
  await expect(dashboard.trackingButton("Door Stop")).toBeEnabled();
  await expect(shell.notifications.getByRole("status")).toHaveCount(0);

  // A number, then focus moves within the editor (no save) and out of it (save).
  await dashboard.trackingButton("Desk Fan").click();
  await editor.number.fill(UPS_NUMBER);
  await expect(editor.carrier).toHaveValue("UPS");
  await editor.carrier.focus();
  await expect(editor.root).toBeVisible();
  await dashboard.heading.click();
  await shell.expectToast("Tracking updated successfully");
  await expect(shell.toast("Tracking updated successfully")).toContainText(
    /Order marked as shipped\. Expected delivery: \w{3} \d{1,2}, \d{4}/,
  );
  await expect(editor.root).toHaveCount(0);
  const card = dashboard.card("Desk Fan");
  await expect(card).toContainText("Shipped");
  await expect(card).toContainText(UPS_NUMBER);
  await expect(card).toContainText("(UPS)");
  await dashboard.expectCount("Shipped", 1);
  await dashboard.expectCount("Ordered", 1);

  // A number no carrier claims: saved, then the warning a second later.
  await dashboard.trackingButton("Door Stop").click();
  const other = dashboard.trackingEditor("Door Stop");
  await other.number.fill("ZZ12");
  await other.number.press("Enter");
  await shell.expectToast("Tracking updated successfully");
  await shell.expectToast("Tracking information incomplete");
  await expect(dashboard.card("Door Stop")).toContainText("ZZ12");

  // Clearing the number clears the carrier and takes a Shipped order back to Ordered.
  await dashboard.trackingButton("Desk Fan").click();
  await editor.number.fill("");
  await expect(editor.carrier).toHaveValue("");
  await editor.number.press("Enter");
  await shell.expectToast("Tracking updated successfully");
  await expect(shell.toast("Tracking updated successfully")).toContainText(
    "Tracking information has been saved.",
  );
  await expect(card).toContainText("No tracking number");
  await expect(card).toContainText("Ordered");

  // Escape leaves without saving.
  await dashboard.trackingButton("Desk Fan").click();
  await editor.number.fill("WILL-NOT-BE-SAVED");
  await editor.number.press("Escape");
  await expect(editor.root).toHaveCount(0);
  await expect(card).toContainText("No tracking number");

  // A click on the card opens the edit screen, which returns to the dashboard.
  await card.click({ position: { x: 5, y: 5 } });
  await expect(page).toHaveURL(/\/orders\/\d+\/edit\?from=%2F$/);
  await expect(editOrder.cancel).toHaveText("Cancel & Return to Dashboard");
  await editOrder.cancel.click();
  await expect(page).toHaveURL("/");
});

test("stat cards and the shipped delivery date on a card", async ({
  request,
  user,
  page,
  dashboard,
}) => {
  const now = new Date();
  const tomorrow = new Date(now.getTime() + 86_400_000);
  const day = (d: Date) =>
    new Intl.DateTimeFormat("en-CA", {
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    }).format(d);
  await createOrderApi(request, user.token, {
    productname: "Arriving Tomorrow",
    asin: "B0TMRW0001",
    estimatedretailvalue: "10.00",
    status: "Shipped",
    trackingnumber: UPS_NUMBER,
    carrier: "UPS",
    expecteddeliverydate: day(tomorrow),
    dateordered: now.toISOString(),
  });
  await createOrderApi(request, user.token, {
    productname: "Reviewed",
    asin: "B0REVD0001",
    estimatedretailvalue: "20.02",
    status: "Review Submitted",
    rating: 5,
    dateordered: now.toISOString(),
  });
  await signInWithToken(page, user.token, "/");
  await expect(dashboard.statValue("Average Value")).toHaveText("$15.01");
  await expect(dashboard.statValue("This Month")).toHaveText("2");
  await expect(dashboard.statValue("Review Rate")).toHaveText("100%");
  const expected = dashboard.card("Arriving Tomorrow").getByText("Expected: Tomorrow");
  await expect(expected).toHaveClass(/delivery-tomorrow/);
  // Completed orders show no tracking editor.
  await expect(dashboard.trackingButton("Reviewed")).toHaveCount(0);
});

test("late parcels, reviews due and ordered today count what they say", async ({
  request,
  user,
  page,
  dashboard,
}) => {
  const res = await request.patch("/api/user/timezone", {
    headers: { Authorization: `Bearer ${user.token}` },
    data: { timezone: "UTC" },
  });
  expect(res.status()).toBe(200);
  const DAY = 86_400_000;
  const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
  await createOrderApi(request, user.token, {
    productname: "Late Parcel",
    asin: "B0LATE0001",
    status: "Shipped",
    expecteddeliverydate: dayAgo(3),
    dateordered: dayAgo(6),
  });
  await createOrderApi(request, user.token, {
    productname: "On Time Parcel",
    asin: "B0LATE0002",
    status: "Shipped",
    expecteddeliverydate: dayAgo(-2),
    dateordered: dayAgo(1),
  });
  await createOrderApi(request, user.token, {
    productname: "Due Soon",
    asin: "B0DUE00001",
    status: "Received",
    datedelivered: `${dayAgo(10)}T12:00:00.000Z`,
    dateordered: dayAgo(14),
  });
  await createOrderApi(request, user.token, {
    productname: "Long Overdue",
    asin: "B0DUE00002",
    status: "Received",
    datedelivered: `${dayAgo(40)}T12:00:00.000Z`,
    dateordered: dayAgo(45),
  });
  // Added today without an order date (as an old mail or a report would): not ordered today.
  await createOrderApi(request, user.token, { productname: "Undated", asin: "B0UNDT0001" });
  await createOrderApi(request, user.token, {
    productname: "Ordered Now",
    asin: "B0TDAY0001",
    dateordered: new Date().toISOString(),
  });
  await signInWithToken(page, user.token, "/");
  await expect(dashboard.statusCard("Ordered")).toHaveAccessibleName(
    "Ordered: 2, Not Shipped, 1 ordered today",
  );
  await expect(dashboard.statusCard("Shipped")).toHaveAccessibleName(
    "Shipped: 2, In Transit, 1 late",
  );
  await expect(dashboard.card("Late Parcel").getByText("Late", { exact: true })).toBeVisible();
  await expect(dashboard.card("On Time Parcel").getByText("Late", { exact: true })).toHaveCount(0);
  const due = dashboard.stats
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: "Reviews Due" }) });
  await expect(due.locator(".stat-value")).toHaveText("1");
  await expect(due).toContainText("1 overdue");
  await expect(due).toContainText("Due 14 days after delivery, overdue after 30");
  // The spec's Review Rate card and the Vine card say what each counts.
  await expect(dashboard.stats).toContainText("of every order you received, any time");
  const vineCard = page.locator(".vine-stat-card");
  await expect(vineCard).toContainText("0 approved of 2 delivered, last 90 days (minimum 60%)");
  await expect(vineCard).toContainText("2 more approved reviews reach 60%");
});

test("the Vine card has its words before the rest of the catalog has arrived", async ({
  page,
  request,
  user,
}) => {
  await createOrderApi(request, user.token, { productname: "Early Words Mug", asin: "B0EARLYW01" });
  // The rest of the catalog (other screens, error sentences) is held until the card is checked.
  const lines: string[] = [];
  page.on("console", (m) => lines.push(m.text()));
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/en-later-[a-z0-9]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await signInWithToken(page, user.token, "/");
  const vineCard = page.locator(".vine-stat-card");
  await expect(vineCard).toContainText("0 approved of 0 delivered, last 90 days (minimum 60%)");
  await expect(vineCard).not.toContainText("vine.");
  release();
  expect(lines.filter((l) => l.includes("Uncompiled message"))).toEqual([]);
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("the dashboard fits a phone, cards in one column", async ({
    request,
    user,
    page,
    dashboard,
    shell,
  }) => {
    for (const name of ["First Thing With A Long Name", "Second Thing"]) {
      await createOrderApi(request, user.token, { productname: name, asin: "B0PHONE001" });
    }
    await signInWithToken(page, user.token, "/");
    await expect(dashboard.recentCards).toHaveCount(2);
    await shell.expectNoHorizontalScroll();
    const [a, b] = await Promise.all([
      dashboard.recentCards.nth(0).boundingBox(),
      dashboard.recentCards.nth(1).boundingBox(),
    ]);
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    await dashboard.trackingButton("Second Thing").click();
    await shell.expectNoHorizontalScroll();
  });
});

test("Recent Orders that fail to load say so, and Try Again loads them", async ({
  page,
  request,
  user,
}) => {
  await createOrderApi(request, user.token, { productname: "Retry Kettle", asin: "B0RETRY001" });
  let fail = true;
  await page.route("**/api/dashboard/recent*", (route) =>
    fail ? route.fulfill({ status: 500, json: { error: "Internal error" } }) : route.fallback(),
  );
  await signInWithToken(page, user.token, "/");
  const card = page.getByRole("article").filter({ hasText: "Recent orders could not be loaded." });
  await expect(card).toBeVisible();
  fail = false;
  await card.getByRole("button", { name: "Try Again" }).click();
  await expect(page.getByRole("heading", { name: "Retry Kettle" })).toBeVisible();
  await expect(card).toHaveCount(0);
});
