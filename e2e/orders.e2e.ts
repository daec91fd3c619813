/**
 * Orders: Add Order, the whole lifecycle on the Edit Order screen, the orders list (inline status
 * change, per-filter info, search/filter/sort/paging in the address), Order Not Found, delete, and
 * the list at phone width.
 */
import { createUser, signInWithToken } from "./support/api.ts";
import {
  createManyOrders,
  createOrderApi,
  expect,
  getOrderApi,
  orderNumber,
  test,
  UPS_NUMBER,
} from "./support/orders.ts";

test.describe("an order's life", () => {
  test("add an order, see it on the dashboard and in the list, and take it to Review Approved", async ({
    page,
    signedInUser: _user,
    dashboard,
    ordersPage,
    editOrder,
    addOrder,
    shell,
  }) => {
    const name = "Bamboo Cutting Board Set";
    const number = orderNumber();

    // The dashboard starts empty.
    await expect(dashboard.emptyRecent).toBeVisible();
    await dashboard.expectCount("Ordered", 0);

    // Add Order checks its fields before anything is sent.
    await dashboard.addOrder.click();
    await expect(page).toHaveURL("/orders/new");
    await expect(addOrder.heading).toBeVisible();
    await addOrder.submit.click();
    await expect(addOrder.productName).toHaveAccessibleDescription("Product name is required");
    await expect(addOrder.asin).toHaveAccessibleDescription("ASIN is required");
    await addOrder.productName.fill(name);
    await addOrder.asin.fill("B0BOARD123");
    await addOrder.productUrl.fill("not a url");
    await addOrder.submit.click();
    await expect(addOrder.productUrl).toHaveAccessibleDescription("Must be a valid URL");
    await expect(addOrder.productName).not.toHaveAccessibleDescription(/required/);
    await addOrder.productUrl.fill("https://www.amazon.com/dp/B0BOARD123");
    await addOrder.orderNumber.fill(number);
    await addOrder.value.fill("34.50");
    await addOrder.submit.click();
    await shell.expectToast("Order added");

    // Back on the dashboard: a recent order and the counts.
    await expect(page).toHaveURL("/");
    await expect(dashboard.card(name)).toBeVisible();
    await expect(dashboard.card(name)).toContainText("Ordered");
    await expect(dashboard.card(name)).toContainText("$34.50");
    await dashboard.expectCount("Ordered", 1);
    await expect(dashboard.statusCard("Ordered")).toHaveAccessibleName(/, 1 ordered today$/);
    await expect(dashboard.statValue("Average Value")).toHaveText("$34.50");

    // …and in the list.
    await dashboard.allOrders.click();
    await expect(page).toHaveURL("/orders?status=all");
    await expect(ordersPage.card(name)).toBeVisible();
    await ordersPage.expectShowing("Showing 1 to 1 of 1 results");

    // Edit: a tracking number makes it Shipped (saved through the tracking call).
    await ordersPage.card(name).getByRole("link", { name }).click();
    await expect(editOrder.heading).toBeVisible();
    await expect(page).toHaveURL(/\/orders\/\d+\/edit\?from=%2Forders%3Fstatus%3Dall$/);
    await expect(editOrder.main).toContainText(`Order #${number}`);
    await expect(editOrder.viewProductPage).toHaveAttribute(
      "href",
      "https://www.amazon.com/dp/B0BOARD123",
    );
    await editOrder.openTab("Shipping");
    await expect(editOrder.lastUpdated).toHaveText("Last updated: Never");
    await expect(editOrder.viewTracking).toHaveCount(0);
    await editOrder.trackingNumber.fill(UPS_NUMBER);
    await expect(editOrder.carrier).toHaveValue("UPS");
    await expect(editOrder.viewTracking).toHaveAttribute(
      "href",
      `https://www.ups.com/track?tracknum=${UPS_NUMBER}`,
    );
    await editOrder.openTab("Product");
    await expect(editOrder.status).toHaveValue("Shipped");
    // Opening a tab does not move the focus into a field of it.
    await expect(editOrder.status).not.toBeFocused();
    await editOrder.save.click();
    await shell.expectToast("Tracking updated successfully");
    await expect(shell.toast("Tracking updated successfully")).toContainText(
      /Order marked as shipped\. Expected delivery: \w{3} \d{1,2}, \d{4}/,
    );

    // Clearing the number would take it back to Ordered and empty the carrier.
    await editOrder.openTab("Shipping");
    await editOrder.trackingNumber.fill("");
    await expect(editOrder.carrier).toHaveValue("");
    await editOrder.openTab("Product");
    await expect(editOrder.status).toHaveValue("Ordered");
    await editOrder.openTab("Shipping");
    await editOrder.trackingNumber.fill(UPS_NUMBER);
    await expect(editOrder.carrier).toHaveValue("UPS");

    // Received, through the free status selector.
    await editOrder.openTab("Product");
    await editOrder.status.selectOption("Received");
    await editOrder.save.click();
    await shell.expectToast("Order updated successfully");

    // Review: a rating is required to submit.
    await editOrder.openTab("Review");
    await expect(editOrder.reviewStatus).toContainText("Not Submitted");
    await expect(editOrder.reviewStatus).toContainText("Received");
    await expect(editOrder.markApproved).toHaveCount(0);
    await editOrder.markSubmitted.click();
    await shell.expectToast("Rating Required");
    await editOrder.star(4).click();
    await expect(editOrder.star(4)).toBeChecked();
    await editOrder.copySubject.click();
    await shell.expectToast("Nothing to copy");
    await editOrder.subject.fill("Sturdy boards, easy to clean");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await editOrder.copySubject.click();
    await shell.expectToast("Copied to clipboard");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      "Sturdy boards, easy to clean",
    );
    await editOrder.text.fill("Three solid boards that do not slip on the counter.");
    await expect(editOrder.wordCount).toHaveText("10 words (target 150)");
    await expect(editOrder.wordCount).toHaveClass(/word-poor/);
    await editOrder.markSubmitted.click();
    await shell.expectToast("Order updated successfully");
    // Back where the edit started: the list.
    await expect(page).toHaveURL("/orders?status=all");
    await expect(ordersPage.card(name)).toContainText("Review Submitted");

    // Review Submitted offers Mark Approved / Mark Rejected.
    await ordersPage.card(name).getByRole("link", { name }).click();
    await editOrder.openTab("Review");
    await expect(editOrder.reviewStatus).toContainText("Submitted");
    await expect(editOrder.markSubmitted).toHaveCount(0);
    await expect(editOrder.markRejected).toBeVisible();
    await editOrder.markApproved.click();
    await shell.expectToast("Order updated successfully");
    await expect(editOrder.reviewStatus).toContainText("Approved");
    await expect(editOrder.viewOnAmazon).toHaveCount(0);
    await editOrder.reference.fill("R2TESTREF42");
    await editOrder.save.click();
    await shell.expectToast("Order updated successfully");
    await expect(editOrder.viewOnAmazon).toHaveAttribute(
      "href",
      "https://www.amazon.com/review/R2TESTREF42",
    );

    // Save & Close returns to the list; the dashboard counts follow.
    await editOrder.saveAndClose.click();
    await expect(page).toHaveURL("/orders?status=all");
    await expect(ordersPage.card(name)).toContainText("Review Approved");
    await shell.backToDashboard.click();
    await dashboard.expectCount("Review Approved", 1);
    await dashboard.expectCount("Ordered", 0);
  });

  test("the edit form shows the rules' messages at the fields and saves nothing invalid", async ({
    request,
    user,
    page,
    editOrder,
    shell,
  }) => {
    const order = await createOrderApi(request, user.token, {
      productname: "Garden Hose Nozzle",
      asin: "B0HOSE0001",
    });
    await signInWithToken(page, user.token, `/orders/${order.orderid}/edit?from=/`);
    await expect(editOrder.heading).toBeVisible();
    await editOrder.productName.fill("  ");
    await editOrder.asin.fill("");
    await editOrder.productUrl.fill("nope");
    await editOrder.openTab("Review");
    await editOrder.save.click();
    // The first tab with a problem opens.
    await expect(editOrder.productTab).toHaveAttribute("aria-selected", "true");
    await expect(editOrder.productName).toHaveAccessibleDescription("Product name is required");
    await expect(editOrder.asin).toHaveAccessibleDescription("ASIN is required");
    await expect(editOrder.productUrl).toHaveAccessibleDescription("Must be a valid URL");
    expect((await getOrderApi(request, user.token, order.orderid)).productname).toBe(
      "Garden Hose Nozzle",
    );
    // Cancel returns to the dashboard without saving.
    await expect(editOrder.cancel).toHaveText("Cancel & Return to Dashboard");
    await editOrder.cancel.click();
    await expect(page).toHaveURL("/");
    await expect(shell.toast("Order updated successfully")).toHaveCount(0);
  });

  test("Delete asks first, then removes the order and returns", async ({
    request,
    user,
    page,
    editOrder,
    ordersPage,
    shell,
  }) => {
    const order = await createOrderApi(request, user.token, {
      productname: "Mistaken Order",
      asin: "B0OOPS0001",
    });
    await signInWithToken(page, user.token, "/orders?status=all");
    await ordersPage.card("Mistaken Order").getByRole("link", { name: "Mistaken Order" }).click();
    await editOrder.deleteOrder.click();
    await expect(editOrder.deleteDialog).toBeVisible();
    await editOrder.deleteDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(editOrder.deleteDialog).toBeHidden();
    await editOrder.deleteOrder.click();
    await editOrder.deleteDialog.getByRole("button", { name: "Delete" }).click();
    await shell.expectToast("Order deleted");
    await expect(page).toHaveURL("/orders?status=all");
    await expect(ordersPage.empty).toBeVisible();
    await expect(ordersPage.main).toContainText("Orders will appear here once they're tracked");
    await page.goto(`/orders/${order.orderid}/edit?from=%2Forders%3Fstatus%3Dall`);
    await expect(editOrder.notFound).toBeVisible();
  });
});

test.describe("Order Not Found", () => {
  test("a missing order offers the way back that `from` names", async ({
    page,
    signedInUser: _user,
    editOrder,
  }) => {
    await page.goto("/orders/99999999/edit?from=/");
    await expect(editOrder.notFound).toBeVisible();
    await editOrder.backButton("Back to Dashboard").click();
    await expect(page).toHaveURL("/");

    await page.goto("/orders/99999999/edit?from=%2Forders%3Fstatus%3DShipped");
    await expect(editOrder.notFound).toBeVisible();
    await editOrder.backButton("Back to Order List").click();
    await expect(page).toHaveURL("/orders?status=Shipped");

    await page.goto("/orders/not-a-number/edit");
    await expect(editOrder.notFound).toBeVisible();
    await expect(editOrder.backButton("Back to Order List")).toBeVisible();
  });

  test("another user's order is not found", async ({ request, page, user, editOrder }) => {
    const other = await createUser(request, { prefix: "other" });
    const theirs = await createOrderApi(request, other.token, {
      productname: "Not Yours",
      asin: "B0THEIRS01",
    });
    await signInWithToken(page, user.token, `/orders/${theirs.orderid}/edit?from=/`);
    await expect(editOrder.notFound).toBeVisible();
    await expect(page.getByText("Not Yours")).toHaveCount(0);
  });
});

test.describe("orders list", () => {
  test("inline status change: one card at a time, with the spec's toast", async ({
    request,
    user,
    page,
    ordersPage,
    shell,
  }) => {
    await createOrderApi(request, user.token, { productname: "Phone Stand", asin: "B0STAND001" });
    await createOrderApi(request, user.token, { productname: "Cable Ties", asin: "B0TIES0001" });
    await signInWithToken(page, user.token, "/orders?status=all");

    await ordersPage.changeStatusButton("Phone Stand").click();
    const select = ordersPage.statusSelect("Phone Stand");
    await expect(select).toBeFocused();
    // The other card is blocked meanwhile.
    await expect(ordersPage.changeStatusButton("Cable Ties")).toBeDisabled();
    await expect(ordersPage.card("Cable Ties")).toHaveAttribute("aria-disabled", "true");
    await expect(ordersPage.card("Cable Ties").getByRole("link")).toHaveCount(0);

    await select.selectOption("Shipped");
    await shell.expectToast("Status updated successfully");
    await expect(shell.toast("Status updated successfully")).toContainText(
      "Order marked as Shipped",
    );
    await expect(select).toHaveCount(0);
    await expect(ordersPage.card("Phone Stand")).toContainText("Shipped");
    await expect(ordersPage.changeStatusButton("Cable Ties")).toBeEnabled();

    // Escape leaves without a change.
    await ordersPage.changeStatusButton("Cable Ties").click();
    await page.keyboard.press("Escape");
    await expect(ordersPage.statusSelect("Cable Ties")).toHaveCount(0);
    await expect(ordersPage.card("Cable Ties")).toContainText("Ordered");

    // The Shipped filter counts shipped orders in the subtitle.
    await ordersPage.statusFilter.selectOption("Shipped");
    await expect(page).toHaveURL("/orders?status=Shipped");
    await expect(ordersPage.subtitle).toContainText("1 order shipped");
    await expect(ordersPage.cards).toHaveCount(1);
  });

  test("per-filter card info: Just Delivered, days since delivery, Edit Review, review dates", async ({
    request,
    user,
    page,
    ordersPage,
    editOrder,
  }) => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const weeksAgo = new Date(Date.now() - 20 * 86_400_000).toISOString();
    await createOrderApi(request, user.token, {
      productname: "Fresh Arrival",
      asin: "B0FRESH001",
      status: "Received",
      datedelivered: hourAgo,
    });
    await createOrderApi(request, user.token, {
      productname: "Waiting Too Long",
      asin: "B0WAIT0001",
      status: "Received",
      datedelivered: weeksAgo,
    });
    await createOrderApi(request, user.token, {
      productname: "Approved Thing",
      asin: "B0APPR0001",
      status: "Review Approved",
      rating: 5,
      datereviewapproved: "2026-01-15T12:00:00.000Z",
    });
    await signInWithToken(page, user.token, "/orders?status=Received");

    // Received: oldest delivery first, the fresh one highlighted.
    await expect(ordersPage.cards).toHaveCount(2);
    expect(await ordersPage.productNames()).toEqual(["Waiting Too Long", "Fresh Arrival"]);
    await expect(ordersPage.sort).toHaveValue("");
    await expect(ordersPage.card("Fresh Arrival")).toContainText("Just Delivered");
    await expect(ordersPage.card("Fresh Arrival")).toHaveClass(/just-delivered/);
    await expect(ordersPage.card("Fresh Arrival")).toContainText("Delivered today");
    await expect(ordersPage.card("Waiting Too Long")).not.toContainText("Just Delivered");
    const age = ordersPage.card("Waiting Too Long").getByText("20 days since delivery");
    await expect(age).toHaveClass(/urgency-warning/);

    // Edit Review opens the review tab and comes back here.
    await ordersPage.editReview("Waiting Too Long").click();
    await expect(editOrder.reviewTab).toHaveAttribute("aria-selected", "true");
    await expect(editOrder.reviewStatus).toContainText("Not Submitted");
    await editOrder.cancel.click();
    await expect(page).toHaveURL("/orders?status=Received");

    // A review filter shows the review date.
    await ordersPage.statusFilter.selectOption("Review Approved");
    await expect(ordersPage.card("Approved Thing")).toContainText("Approved Jan 15, 2026");
    await expect(ordersPage.editReview("Approved Thing")).toHaveCount(0);

    // A filter with no match.
    await ordersPage.statusFilter.selectOption("Canceled");
    await expect(ordersPage.empty).toBeVisible();
    await expect(ordersPage.main).toContainText("Try adjusting your search or filter criteria");
  });

  test("search, filter, sort, page and page size live in the address and survive an edit", async ({
    request,
    user,
    page,
    ordersPage,
    editOrder,
  }) => {
    await createManyOrders(request, user.token, 23, "Bulk Item");
    await createOrderApi(request, user.token, {
      productname: "Odd One Out",
      asin: "B0ODD00001",
      amazonordernumber: "113-0000000-4242424",
    });
    await signInWithToken(page, user.token, "/orders");

    await ordersPage.expectShowing("Showing 1 to 10 of 24 results");
    await expect(ordersPage.sort).toHaveValue("newest");
    await expect(ordersPage.cards.first()).toContainText("Odd One Out");
    await expect(ordersPage.pageButton(3)).toBeVisible();
    await expect(ordersPage.previous).toBeDisabled();

    await ordersPage.pageButton(3).click();
    await expect(page).toHaveURL("/orders?status=all&page=3");
    await ordersPage.expectShowing("Showing 21 to 24 of 24 results");
    await expect(ordersPage.pageButton(3)).toHaveAttribute("aria-current", "page");
    await expect(ordersPage.next).toBeDisabled();
    await ordersPage.previous.click();
    await expect(page).toHaveURL("/orders?status=all&page=2");

    // A sort goes back to page 1.
    await ordersPage.sort.selectOption("Product A-Z");
    await expect(page).toHaveURL("/orders?status=all&sort=product-asc");
    expect((await ordersPage.productNames()).slice(0, 2)).toEqual(["Bulk Item 01", "Bulk Item 02"]);

    // Page size.
    await ordersPage.pageSize.selectOption("25");
    await expect(page).toHaveURL("/orders?status=all&sort=product-asc&size=25");
    await ordersPage.expectShowing("Showing 1 to 24 of 24 results");
    await expect(ordersPage.cards).toHaveCount(24);
    await ordersPage.pageSize.selectOption("10");

    // Search matches the product name or the order number, after a pause in typing.
    await ordersPage.search.fill("4242424");
    await expect(page).toHaveURL("/orders?status=all&q=4242424&sort=product-asc");
    await expect(ordersPage.cards).toHaveCount(1);
    await ordersPage.search.fill("bulk item 1");
    await expect(page).toHaveURL("/orders?status=all&q=bulk+item+1&sort=product-asc");
    await ordersPage.expectShowing("Showing 1 to 10 of 10 results");
    await ordersPage.sort.selectOption("Product Z-A");
    await ordersPage.pageSize.selectOption("25");
    await ordersPage.statusFilter.selectOption("Ordered");
    const view = "/orders?status=Ordered&q=bulk+item+1&sort=product-desc&size=25";
    await expect(page).toHaveURL(view);
    expect(await ordersPage.productNames()).toEqual([
      "Bulk Item 19",
      "Bulk Item 18",
      "Bulk Item 17",
      "Bulk Item 16",
      "Bulk Item 15",
      "Bulk Item 14",
      "Bulk Item 13",
      "Bulk Item 12",
      "Bulk Item 11",
      "Bulk Item 10",
    ]);

    // The edit screen's Cancel brings back exactly this view.
    await ordersPage.card("Bulk Item 15").click({ position: { x: 5, y: 5 } });
    await expect(editOrder.heading).toBeVisible();
    await expect(editOrder.cancel).toHaveText("Cancel & Return to Order List");
    await editOrder.cancel.click();
    await expect(page).toHaveURL(view);
    await expect(ordersPage.search).toHaveValue("bulk item 1");
    await expect(ordersPage.statusFilter).toHaveValue("Ordered");
    await expect(ordersPage.sort).toHaveValue("product-desc");
    await expect(ordersPage.pageSize).toHaveValue("25");
    await expect(ordersPage.cards).toHaveCount(10);

    // The browser's back button walks back through the views.
    await page.goBack();
    await expect(page).toHaveURL(/\/orders\/\d+\/edit/);
    await page.goBack();
    await expect(page).toHaveURL(view);
  });
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("the orders list and the edit screen fit a phone", async ({
    request,
    user,
    page,
    ordersPage,
    editOrder,
    shell,
  }) => {
    await createManyOrders(
      request,
      user.token,
      12,
      "A Rather Long Product Name For A Small Screen",
    );
    await signInWithToken(page, user.token, "/orders?status=all");
    await expect(ordersPage.cards).toHaveCount(10);
    await shell.expectNoHorizontalScroll();
    await expect(ordersPage.search).toBeInViewport();
    await ordersPage.changeStatusButton("A Rather Long Product Name For A Small Screen 12").click();
    await shell.expectNoHorizontalScroll();
    await page.keyboard.press("Escape");
    await ordersPage.pagination.scrollIntoViewIfNeeded();
    await shell.expectNoHorizontalScroll();

    await ordersPage.cards.first().getByRole("link").first().click();
    await expect(editOrder.heading).toBeVisible();
    for (const tab of ["Product", "Shipping", "Review"] as const) {
      await editOrder.openTab(tab);
      await shell.expectNoHorizontalScroll();
    }
    // Short tab labels on a phone.
    await expect(editOrder.tabs.getByRole("tab", { name: "Review", exact: true })).toBeVisible();
  });
});
