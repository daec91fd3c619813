/**
 * An automated accessibility check (axe-core through Playwright) over every screen, in the light
 * and the dark theme: no serious or critical violation. Each screen is checked once its content
 * has loaded (a heading or the form is visible), with the data a user would have.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { signInWithToken } from "./support/api.ts";
import { createOrderApi, expect, test } from "./support/orders.ts";

async function expectNoSeriousViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes
        .slice(0, 5)
        .map(
          (n) => `   ${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 2).join("")}`,
        )
        .join("\n")}`,
  );
  expect(report, `${screen}: serious or critical axe violations`).toEqual([]);
}

for (const scheme of ["light", "dark"] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test("public screens: sign-in, privacy policy, not found", async ({ page }) => {
      await page.goto("/login");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page, "/login");
      await page.goto("/privacy-policy");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page, "/privacy-policy");
      await page.goto("/no-such-page");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page, "not found");
    });

    test("signed-in screens: dashboard, orders, add, edit (every tab), account (every tab), Vine, admin logs", async ({
      page,
      request,
      admin,
    }) => {
      await createOrderApi(request, admin.token, {
        productname: `Axe Check Shipped ${scheme}`,
        asin: "B0AXECHK01",
        status: "Shipped",
        trackingnumber: "1Z999AA10123456784",
        carrier: "UPS",
      });
      const received = await createOrderApi(request, admin.token, {
        productname: `Axe Check Received ${scheme}`,
        asin: "B0AXECHK02",
        status: "Received",
        datedelivered: "2026-01-02",
        rating: 3,
      });
      await signInWithToken(page, admin.token, "/");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Recent Orders" })).toBeVisible();
      await expect(main.getByRole("article").first()).toBeVisible();
      await expectNoSeriousViolations(page, "dashboard");

      await page.goto("/orders?status=all");
      await expect(main.getByRole("article").first()).toBeVisible();
      await expectNoSeriousViolations(page, "orders");

      await page.goto("/orders/new");
      await expect(main.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page, "add order");

      await page.goto(`/orders/${received.orderid}/edit`);
      const tabs = main.getByRole("tablist");
      for (const name of [/^Product/, /^Shipping/, /^Review/]) {
        await tabs.getByRole("tab", { name }).click();
        await expect(main.getByRole("tabpanel")).toBeVisible();
        await expectNoSeriousViolations(page, `edit order, ${name.source}`);
      }

      await page.goto("/account");
      for (const name of [/Profile/, /Review/, /Tracking/, /Email/, /Alerts/]) {
        await main.getByRole("tablist").getByRole("tab", { name }).click();
        await expect(main.getByRole("tabpanel").locator("article").first()).toBeVisible();
        await expect(main.getByRole("tabpanel").locator("[aria-busy=true]")).toHaveCount(0);
        await expectNoSeriousViolations(page, `account, ${name.source}`);
      }

      await page.goto("/vine");
      await expect(main.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(main.locator("[aria-busy=true]")).toHaveCount(0);
      await expectNoSeriousViolations(page, "vine");

      await page.goto("/admin/logs");
      await expect(main.getByRole("table")).toBeVisible();
      await expectNoSeriousViolations(page, "admin logs");
    });
  });
}
