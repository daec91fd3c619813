/**
 * The first screen's requests go out side by side (issue 14 item 9): on a cold load of the orders
 * list by a signed-in user, the list's query and the page's chunk start before the user check has
 * answered, instead of one after the other once the app has run. The time this saves on a phone
 * profile is measured by bench/first-screen.bench.ts, not here.
 */
import { signInWithToken } from "./support/api.ts";
import { createOrderApi, expect, test } from "./support/orders.ts";

test("a cold load of the orders list starts the user check, the list and the page chunk together", async ({
  page,
  request,
  user,
  ordersPage,
}) => {
  await createOrderApi(request, user.token, { productname: "Early Bird Mug", asin: "B0EARLY001" });
  // The token is stored first (a signed-in user); then a cold load of the list.
  await signInWithToken(page, user.token, "/privacy-policy");
  await page.goto("/orders?status=all");
  await expect(ordersPage.card("Early Bird Mug")).toBeVisible();
  const timing = await page.evaluate(() => {
    const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const find = (test: (path: string) => boolean) =>
      entries.find((e) => test(new URL(e.name).pathname));
    const user = find((p) => p === "/api/user/data");
    const list = find((p) => p === "/api/orders");
    const chunk = find((p) => /^\/OrdersPage-[a-z0-9]+\.js$/.test(p));
    return {
      userEnd: user?.responseEnd ?? null,
      listStart: list?.startTime ?? null,
      chunkStart: chunk?.startTime ?? null,
      listUrl: list?.name ?? null,
    };
  });
  expect(timing.userEnd).not.toBeNull();
  expect(timing.listUrl).toContain("/api/orders?status=all");
  // Not waiting for the user check: both started before its answer was in.
  expect(timing.listStart!).toBeLessThan(timing.userEnd!);
  expect(timing.chunkStart!).toBeLessThan(timing.userEnd!);
  // One request each: the app used the answers started early instead of asking again.
  const again = await page.evaluate(
    () =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
        (e) => new URL(e.name).pathname === "/api/orders",
      ).length,
  );
  expect(again).toBe(1);
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
