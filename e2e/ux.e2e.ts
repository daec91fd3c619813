/**
 * The UX pass, checked as a user meets it: layout at phone width (nothing cut or
 * overlapping), 44 px touch targets, a visible focus ring, the ARIA tabs with arrow keys, the
 * inline tracking editor's Save and Cancel, broken images, visible empty stars, and the small
 * wordings of the review tab.
 */
import type { Locator, Page } from "@playwright/test";
import { EmailTab } from "./pages/EmailTab.ts";
import { signInWithToken } from "./support/api.ts";
import { createOrderApi, expect, orderNumber, test } from "./support/orders.ts";

const PHONE = { width: 390, height: 844 };

async function box(l: Locator) {
  const b = await l.boundingBox();
  if (!b) throw new Error("not visible");
  return b;
}

/** WCAG contrast ratio of an element's text colour against the page background. */
async function contrastWithPage(page: Page, l: Locator): Promise<number> {
  const fg = await l.evaluate((el) => getComputedStyle(el).color);
  const bg = await page.evaluate(() => {
    const b = getComputedStyle(document.body).backgroundColor;
    return b === "rgba(0, 0, 0, 0)"
      ? getComputedStyle(document.documentElement).backgroundColor
      : b;
  });
  const lum = (c: string) => {
    const [r, g, b] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x) as [number, number];
  return (a + 0.05) / (b + 0.05);
}

/** A focus ring: an outline of 2 px or more that the element does not have without focus. */
async function expectFocusRing(l: Locator) {
  const outline = await l.evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
  });
  expect(
    outline.style !== "none" && outline.width >= 2,
    `focus ring on ${await l.evaluate((el) => el.outerHTML.slice(0, 80))}`,
  ).toBe(true);
}

test.describe("at phone width", () => {
  test.use({ viewport: PHONE });

  test("card buttons, stars, Copy and footer links are at least 44 px tall", async ({
    page,
    request,
    user,
    ordersPage,
    editOrder,
  }) => {
    await createOrderApi(request, user.token, {
      productname: "Tall Button Lamp",
      asin: "B0TALL0001",
    });
    const received = await createOrderApi(request, user.token, {
      productname: "Tall Button Mug",
      asin: "B0TALL0002",
      status: "Received",
      datedelivered: "2026-01-02",
    });
    await signInWithToken(page, user.token, "/");
    const targets = [
      page.getByRole("button", { name: "Add tracking: Tall Button Lamp" }),
      page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }),
      page.getByRole("contentinfo").getByRole("link", { name: "Account Settings" }),
    ];
    for (const t of targets) expect((await box(t)).height).toBeGreaterThanOrEqual(44);

    await ordersPage.goto("status=all");
    for (const t of [
      page.getByRole("button", { name: "Change status: Tall Button Mug" }),
      page.getByRole("link", { name: "Edit Review: Tall Button Mug" }),
    ]) {
      expect((await box(t)).height).toBeGreaterThanOrEqual(44);
    }

    await editOrder.goto(received.orderid, "/orders", "review");
    for (const t of [
      editOrder.main.locator(".star-rating label").first(),
      page.getByRole("button", { name: "Copy subject" }),
      page.getByRole("button", { name: "Copy review text" }),
    ]) {
      expect((await box(t)).height).toBeGreaterThanOrEqual(44);
    }
  });

  test("nothing is cut or overlapping: import-mode hints, tracking hints, the log table, long names", async ({
    page,
    request,
    admin,
    editOrder,
  }) => {
    await signInWithToken(page, admin.token, "/account?tab=email");
    const email = new EmailTab(page);
    await email.expectSelected();
    const card = page.getByRole("article").filter({ hasText: "Which orders to import" });
    const cardBox = await box(card);
    for (const name of ["Vine orders only", "All Amazon orders"]) {
      const label = card.locator("label").filter({ hasText: name });
      const hint = label.locator("small");
      const radio = label.getByRole("radio");
      const h = await box(hint);
      const r = await box(radio);
      // The hint sits below the label's first line, beside (not under) the radio, inside the card.
      expect(h.x).toBeGreaterThanOrEqual(r.x + r.width);
      expect(h.x + h.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      const text = await box(label.locator(".import-mode-text"));
      expect(h.y).toBeGreaterThan(text.y + 10);
    }

    await page.getByRole("tab", { name: /Tracking/ }).click();
    for (const name of ["Timezone", "Daily update time"]) {
      const select = page.getByRole("combobox", { name });
      const hint = page
        .getByRole("tabpanel")
        .locator("label")
        .filter({ has: select })
        .locator("small");
      const s = await box(select);
      expect((await box(hint)).y).toBeGreaterThanOrEqual(s.y + s.height + 2);
    }

    await page.goto("/admin/logs");
    const del = page.getByRole("button", { name: "Delete" }).first();
    await expect(del).toBeVisible();
    const d = await box(del);
    expect(d.x + d.width).toBeLessThanOrEqual(PHONE.width);

    const long =
      "Noise Cancelling Wireless Earbuds with Charging Case, Bluetooth 5.3, 40 Hours of Playtime, IPX7 Waterproof, Touch Control, Built-in Microphones for Calls, Black";
    const order = await createOrderApi(request, admin.token, {
      productname: long,
      asin: "B0LONGNAME",
      amazonordernumber: orderNumber(),
    });
    await editOrder.goto(order.orderid, "/");
    await expect(editOrder.productName).toHaveValue(long);
    const cut = await editOrder.productName.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    expect(cut, "the product name box shows the whole name").toBe(false);
  });
});

test("a broken product image shows the package placeholder, not a broken-image box", async ({
  page,
  request,
  user,
  dashboard,
}) => {
  // An address on Amazon's image servers (the only ones the API and the page's CSP accept) whose
  // picture is gone: Amazon answers 404.
  const gone = "https://m.media-amazon.com/images/I/GONE-B0NOPIC001.jpg";
  await page.route(gone, (route) => route.fulfill({ status: 404, body: "" }));
  await createOrderApi(request, user.token, {
    productname: "Missing Picture Clock",
    asin: "B0NOPIC001",
    productimage: gone,
  });
  await signInWithToken(page, user.token, "/");
  const card = dashboard.card("Missing Picture Clock");
  await expect(card.locator(".package-icon")).toBeVisible();
  await expect(card.locator("img")).toHaveCount(0);
});

test("empty rating stars are plainly visible in light and dark", async ({
  page,
  request,
  user,
  editOrder,
}) => {
  const order = await createOrderApi(request, user.token, {
    productname: "Star Gazer Lamp",
    asin: "B0STARS001",
    status: "Received",
    datedelivered: "2026-01-02",
  });
  await signInWithToken(page, user.token, "/");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await editOrder.goto(order.orderid, "/", "review");
    const empty = editOrder.main.locator(".star-rating label:not(.on)").first();
    // Non-text contrast (WCAG 1.4.11): at least 3:1.
    expect(await contrastWithPage(page, empty)).toBeGreaterThanOrEqual(3);
  }
});

test("Tabs follow the ARIA tabs pattern: arrow keys, Home and End, one tab stop", async ({
  page,
  request,
  signedInUser: user,
  accountPage,
  editOrder,
}) => {
  await accountPage.goto();
  const tabs = accountPage.tabs.getByRole("tab");
  // Profile, Reviews, Tracking, Email, Alerts.
  await expect(tabs).toHaveCount(5);
  await accountPage.profileTab.focus();
  await expectFocusRing(accountPage.profileTab);
  // Only the selected tab is in the tab order.
  await expect(tabs.nth(1)).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press("ArrowRight");
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/tab=reviews/);
  await page.keyboard.press("End");
  await expect(tabs.nth(4)).toBeFocused();
  await expect(page.getByRole("tabpanel")).toHaveAccessibleName(/Alerts/);
  await page.keyboard.press("ArrowRight");
  await expect(tabs.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(tabs.nth(4)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Home");
  await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");

  const order = await createOrderApi(request, user.token, {
    productname: "Keyboard Tray",
    asin: "B0KEYTRAY1",
  });
  await editOrder.goto(order.orderid, "/");
  await editOrder.productTab.focus();
  await page.keyboard.press("ArrowRight");
  await expect(editOrder.shippingTab).toBeFocused();
  await expect(editOrder.shippingTab).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("End");
  await expect(editOrder.reviewTab).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Home");
  await expect(editOrder.productTab).toHaveAttribute("aria-selected", "true");
  // Tab leaves the strip for the panel.
  await page.keyboard.press("Tab");
  await expect(editOrder.shippingTab).not.toBeFocused();
});

test("every focusable part of the header and the dashboard shows where the focus is", async ({
  page,
  request,
  user,
  dashboard,
}) => {
  await createOrderApi(request, user.token, { productname: "Focus Fan", asin: "B0FOCUS001" });
  await signInWithToken(page, user.token, "/orders");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // From the address bar onwards, as a keyboard user: the back button, the logo, the bell, the menu.
  const header = page.getByRole("banner");
  const stops = [
    header.getByRole("link", { name: "Back to dashboard" }),
    header.getByRole("link", { name: "Grapevine" }),
    header.locator("summary"),
  ];
  for (const stop of stops) {
    await stop.focus();
    // Focus from the keyboard (focus() after a key press is :focus-visible).
    await page.keyboard.press("Shift");
    await expectFocusRing(stop);
  }
  await header.getByRole("link", { name: "Grapevine" }).click();
  await expect(dashboard.heading).toBeVisible();
  const card = dashboard.statusCard("Ordered");
  await card.focus();
  await page.keyboard.press("Shift");
  await expectFocusRing(card);
});

test("the dashboard's inline Add tracking has explicit Save and Cancel", async ({
  page,
  request,
  user,
  dashboard,
  shell,
}) => {
  await createOrderApi(request, user.token, {
    productname: "Save Cancel Kettle",
    asin: "B0SAVECAN1",
  });
  await signInWithToken(page, user.token, "/");
  await dashboard.trackingButton("Save Cancel Kettle").click();
  const editor = dashboard.trackingEditor("Save Cancel Kettle");
  // Typing can start at once: the number box has the focus.
  await expect(editor.number).toBeFocused();
  await editor.number.fill("1Z999AA10123456784");
  await editor.root.getByRole("button", { name: "Cancel" }).click();
  await expect(editor.root).toHaveCount(0);
  await expect(dashboard.card("Save Cancel Kettle")).toContainText("No tracking number");

  // Opened again: focused again (an HTML autofocus attribute would be honoured only once a page).
  await dashboard.trackingButton("Save Cancel Kettle").click();
  await expect(editor.number).toBeFocused();
  await editor.number.fill("1Z999AA10123456784");
  await editor.root.getByRole("button", { name: "Save" }).click();
  await shell.expectToast("Tracking updated successfully");
  await expect(dashboard.card("Save Cancel Kettle")).toContainText("1Z999AA10123456784");
});

test("review tab: an approved review's word count is not red; AI help is offered when it is off", async ({
  page,
  request,
  user,
  editOrder,
}) => {
  const approved = await createOrderApi(request, user.token, {
    productname: "Approved Teapot",
    asin: "B0APPROVE1",
    status: "Review Approved",
    datedelivered: "2026-01-02",
    rating: 5,
    reviewsubject: "Fine",
    reviewtext: "Short and sweet.",
  });
  const received = await createOrderApi(request, user.token, {
    productname: "Received Teapot",
    asin: "B0RECEIVE1",
    status: "Received",
    datedelivered: "2026-01-02",
  });
  await signInWithToken(page, user.token, "/");
  await editOrder.goto(approved.orderid, "/", "review");
  await expect(editOrder.wordCount).toHaveText("3 words");
  const red = await editOrder.wordCount.evaluate((el) => {
    const [r, g, b] = (getComputedStyle(el).color.match(/\d+/g) ?? []).map(Number);
    return (r ?? 0) > 150 && (g ?? 0) < 110 && (b ?? 0) < 110;
  });
  expect(red).toBe(false);

  await editOrder.goto(received.orderid, "/", "review");
  const offer = editOrder.main.getByText(/AI help can fix the spelling of your review/);
  await expect(offer).toBeVisible();
  await offer.getByRole("link", { name: "Account → Review Settings" }).click();
  await expect(page).toHaveURL(/\/account\?tab=reviews/);
  await expect(page.getByRole("tab", { name: /Review/ })).toHaveAttribute("aria-selected", "true");
});
