/**
 * The first screen's requests go out side by side: on a cold load of the orders
 * list by a signed-in user, the list's query and the page's chunk start before the user check has
 * answered, instead of one after the other once the app has run. The time this saves on a phone
 * profile is measured by bench/first-screen.bench.ts, not here. A signed-out visitor gets the
 * sign-in page's chunk (lazy, like every screen but the dashboard) the same early way.
 */
import type { Page } from "@playwright/test";
import { signInWithToken } from "./support/api.ts";
import { createManyOrders, createOrderApi, expect, test } from "./support/orders.ts";

/**
 * Runs in the page: once the first order card appears, the number of cards then is kept in
 * `window[key]` (what the list's first render drew).
 */
function recordFirstCards(key: string) {
  new MutationObserver((_, obs) => {
    const n = document.querySelectorAll("article.order-card").length;
    if (n > 0) {
      (window as unknown as Record<string, number>)[key] = n;
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

/** What recordFirstCards kept under `key`. */
const recorded = (page: Page, key: string) =>
  page.evaluate((k) => (window as unknown as Record<string, number | undefined>)[k], key);

test("a cold load of the orders list starts the user check, the list and the page chunk together", async ({
  page,
  request,
  user,
  ordersPage,
}) => {
  await createOrderApi(request, user.token, { productname: "Early Bird Mug", asin: "B0EARLY001" });
  // The token is stored first (a signed-in user); then a cold load of the list.
  await signInWithToken(page, user.token, "/privacy-policy");
  // The user check is answered only once the list's query and the page's chunk have been asked
  // for: when they waited for it (one after the other), nothing would ever show.
  let listAsked = () => {};
  let chunkAsked = () => {};
  const asked = Promise.all([
    new Promise<void>((r) => {
      listAsked = r;
    }),
    new Promise<void>((r) => {
      chunkAsked = r;
    }),
  ]);
  const lists: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path === "/api/orders") {
      lists.push(r.url());
      listAsked();
    }
    if (/^\/OrdersPage-[a-z0-9]+\.js$/.test(path)) chunkAsked();
  });
  await page.route("**/api/user/data", async (route) => {
    await asked;
    await route.continue();
  });
  await page.goto("/orders?status=all");
  await expect(ordersPage.card("Early Bird Mug")).toBeVisible();
  expect(lists[0]).toContain("/api/orders?status=all");
  // One request: the app used the answer started early instead of asking again.
  expect(lists).toHaveLength(1);
});

test("answers started for another user's token are not used", async ({
  page,
  request,
  user,
  ordersPage,
}) => {
  await createOrderApi(request, user.token, { productname: "Own Order Only", asin: "B0OWNORD01" });
  await signInWithToken(page, user.token, "/privacy-policy");
  // The stored token changes after the early requests went out (another tab signed in as someone
  // else): the app asks again with the token it has.
  await page.addInitScript(() => {
    let held: unknown;
    Object.defineProperty(window, "__gvPreload", {
      configurable: true,
      get: () => held,
      set: (v: { token: string }) => {
        held = { ...v, token: "someone-else" };
      },
    });
  });
  const lists: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/orders") lists.push(r.url());
  });
  await page.goto("/orders?status=all");
  await expect(ordersPage.card("Own Order Only")).toBeVisible();
  // The early request, then the app's own with the token it has.
  await expect.poll(() => lists.length).toBe(2);
});

test("the server's page shows the rows before the app has run, inert, and the app's own replaces it", async ({
  page,
  request,
  user,
  ordersPage,
}) => {
  await createManyOrders(request, user.token, 6, "Server Drawn Item");
  // A returning user: the app saved the browser's zone on an earlier visit.
  const zone = await request.patch("/api/user/timezone", {
    headers: { Authorization: `Bearer ${user.token}` },
    data: { timezone: "Europe/Berlin" },
  });
  expect(zone.status()).toBe(200);
  await signInWithToken(page, user.token, "/privacy-policy");
  // The app's scripts are held: whatever is in the page now, the server drew.
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/index-[a-z0-9]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/orders?status=all", { waitUntil: "commit" });
  const serverCards = page.locator("#root[inert] article.order-card");
  await expect(serverCards.first()).toContainText("Server Drawn Item 06");
  expect(await serverCards.count()).toBeGreaterThan(0);
  // Marked, to tell the server's cards from the app's.
  await page.evaluate(() => {
    for (const card of document.querySelectorAll("article.order-card")) {
      (card as unknown as { __fromServer: boolean }).__fromServer = true;
    }
  });
  release();
  // The app's first render replaces the server's page, and the page answers to the reader.
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  await expect(page.locator("article.order-card")).toHaveCount(6);
  const marked = await page.evaluate(
    () =>
      [...document.querySelectorAll("article.order-card")].filter(
        (card) => (card as unknown as { __fromServer?: boolean }).__fromServer,
      ).length,
  );
  expect(marked).toBe(0);
  await ordersPage.changeStatusButton("Server Drawn Item 06").click();
  await expect(ordersPage.statusSelect("Server Drawn Item 06")).toBeVisible();
});

test("a signed-out cold load fetches the sign-in page's chunk before the app has run", async ({
  page,
  loginPage,
}) => {
  // The app's own scripts are held until the sign-in chunk has been asked for: only the early
  // script can ask for it then (without it, the page would stay blank).
  let loginAsked = () => {};
  const asked = new Promise<void>((r) => {
    loginAsked = r;
  });
  page.on("request", (r) => {
    if (/^\/LoginPage-[a-z0-9]+\.js$/.test(new URL(r.url()).pathname)) loginAsked();
  });
  await page.route(/\/index-[a-z0-9]+\.js$/, async (route) => {
    await asked;
    await route.continue();
  });
  await page.goto("/orders?status=all");
  await expect(loginPage.signInHeading).toBeVisible();
  await expect(page).toHaveURL(/\/login\?next=/);
});

test("the page runs on React DOM (the stack the project asks for, not a look-alike)", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // React DOM's createRoot marks its container with a __reactContainer$… key; Preact does not.
  const marks = await page.evaluate(() =>
    Object.keys(document.getElementById("root") ?? {}).filter((k) => k.startsWith("__react")),
  );
  expect(marks.some((k) => k.startsWith("__reactContainer"))).toBe(true);
});

test("the app's chunks ask V8 to compile all their functions while they download", async ({
  page,
}) => {
  // Compiled lazily, React DOM's functions were compiled on the main thread as the first render
  // called them (about a third of that render on the phone profile); with the hint they are
  // compiled on a background thread as the bytes arrive (bench/first-screen.bench.ts --profile).
  const res = await page.goto("/login");
  const html = (await res?.text()) ?? "";
  const entry = html.match(/<script[^>]+src="(\/index-[a-z0-9]+\.js)"/)?.[1];
  expect(entry).toBeTruthy();
  const chunk = await page.request.get(entry!);
  expect((await chunk.text()).startsWith("//# allFunctionsCalledOnLoad\n")).toBe(true);
});

test("on a phone the list's first render draws the cards the screen shows; the rest and the pagination follow", async ({
  page,
  request,
  user,
  ordersPage,
}) => {
  await createManyOrders(request, user.token, 12, "Viewport Item");
  await page.setViewportSize({ width: 390, height: 844 });
  // How many cards are in the page when the first one is (web/lib/order-list-first.ts: 4).
  await page.addInitScript(recordFirstCards, "__firstCards");
  await signInWithToken(page, user.token, "/orders?status=all");
  await expect(page.locator("article.order-card")).toHaveCount(10);
  await expect(ordersPage.pagination).toBeAttached();
  expect(await recorded(page, "__firstCards")).toBe(4);
});

test("back from an order, the whole list is drawn at once, so the browser can put the scroll position back", async ({
  page,
  request,
  user,
}) => {
  await createManyOrders(request, user.token, 12, "Scroll Item");
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithToken(page, user.token, "/orders?status=all");
  const cards = page.locator("article.order-card");
  await expect(cards).toHaveCount(10);
  const ninth = cards.nth(8);
  await ninth.scrollIntoViewIfNeeded();
  await ninth.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/orders\/\d+\/edit/);
  await expect(cards).toHaveCount(0);
  // How many cards are in the page when the list is drawn again (a short first render, as on
  // the app's first screen, left the page too short to scroll back to the ninth card).
  await page.evaluate(recordFirstCards, "__backCards");
  await page.goBack();
  await expect(cards).toHaveCount(10);
  expect(await recorded(page, "__backCards")).toBe(10);
});

test("the service worker is registered once the first screen is drawn, not before its first render", async ({
  page,
  request,
  user,
  ordersPage,
}) => {
  await createOrderApi(request, user.token, { productname: "Worker Wait Mug", asin: "B0WORKER01" });
  // How many cards the page has when the app asks for the worker (its script's download and its
  // start would otherwise share a phone's link and CPU with the first render).
  await page.addInitScript(() => {
    const w = window as unknown as { __cardsAtRegister?: number };
    const container = navigator.serviceWorker;
    if (!container) return;
    const register = container.register.bind(container);
    container.register = (...args: Parameters<ServiceWorkerContainer["register"]>) => {
      w.__cardsAtRegister = document.querySelectorAll("article.order-card").length;
      return register(...args);
    };
  });
  await signInWithToken(page, user.token, "/orders?status=all");
  await expect(ordersPage.card("Worker Wait Mug")).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() => (window as { __cardsAtRegister?: number }).__cardsAtRegister ?? null),
    )
    .toBe(1);
});
