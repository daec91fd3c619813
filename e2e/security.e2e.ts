/**
 * In the browser: every screen works under the pages' Content-Security-Policy with no
 * violation (a `securitypolicyviolation` listener on every page, and console errors), the policy
 * really blocks inline script (all but the build's early script, allowed by its hash), and changing the email address asks for the current password.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { png } from "../test/support/media-files.ts";
import { ReviewMediaArea } from "./pages/ReviewMediaArea.ts";
import { signInWithToken } from "./support/api.ts";
import { createOrderApi, expect, test } from "./support/orders.ts";

type Violation = { directive: string; blocked: string; source: string };

/** Records every CSP violation of every document the page loads, and console errors. */
async function watchPolicy(page: Page) {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: Violation[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__csp.push({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}`,
      });
    });
  });
  return {
    violations: () =>
      page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp ?? []),
    /** Errors that are about the policy (a failed image download offline is not one). */
    policyErrors: () => consoleErrors.filter((t) => /Content Security Policy|Refused to/i.test(t)),
  };
}

test("the built index.html has no inline script but the early one, allowed by its hash alone; no inline style or handler", async ({
  request,
}) => {
  const dist = path.join(import.meta.dirname, "..", "dist");
  const html = fs.readFileSync(path.join(dist, "index.html"), "utf8");
  const inline: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc=/.test(m[0])) expect(m[1]!.trim()).toBe("");
    else inline.push(m[1]!);
  }
  // web/preload.ts, inline so its requests start as the page is parsed.
  expect(inline).toHaveLength(1);
  const hash = `sha256-${createHash("sha256").update(inline[0]!).digest("base64")}`;
  const policy = (await request.get("/orders")).headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(
    new RegExp(`(^|; )script-src 'self' '${hash.replace(/[+/]/g, "\\$&")}'(;|$)`),
  );
  expect(policy).not.toContain("unsafe-inline");
  expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
});

test("every screen works under the policy without a single violation", async ({
  page,
  request,
  user,
  admin,
}) => {
  const watch = await watchPolicy(page);
  const order = await createOrderApi(request, user.token, {
    productname: "Pictured Desk Lamp",
    asin: "B0LAMP0001",
    status: "Received",
    productimage: "https://m.media-amazon.com/images/I/71lamp.jpg",
  });
  await createOrderApi(request, user.token, { productname: "Plain Kettle", asin: "B0KETTLE02" });

  await page.goto("/login");
  await expect(page.getByRole("button", { name: /sign in/i }).first()).toBeVisible();

  await signInWithToken(page, user.token, "/");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByText("Pictured Desk Lamp").first()).toBeVisible();

  await page.goto("/orders?status=all");
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await expect(page.getByText("Plain Kettle").first()).toBeVisible();

  await page.goto("/orders/new");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Edit Order, the review section: a photo uploaded through the page (a blob: preview, then the
  // stored file served by this server with a media token).
  await page.goto(`/orders/${order.orderid}/edit?section=review`);
  const media = new ReviewMediaArea(page);
  await expect(media.chooseFiles).toBeVisible();
  await media.upload([{ name: "lamp.png", mimeType: "image/png", buffer: Buffer.from(png()) }]);
  await expect(media.stored).toHaveCount(1, { timeout: 15_000 });
  await expect
    .poll(() => media.stored.first().evaluate((i) => (i as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  await page.goto(`/orders/${order.orderid}/edit`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  for (const tab of ["", "?tab=reviews", "?tab=tracking", "?tab=email"]) {
    await page.goto(`/account${tab}`);
    await expect(page.getByRole("heading", { name: "Account Settings", level: 1 })).toBeVisible();
    await expect(page.getByRole("tabpanel")).toBeVisible();
  }

  // The notifications popover renders server-made HTML.
  await page.goto("/");
  await page
    .getByRole("button", { name: /notifications/i })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toBeVisible();

  await page.goto("/privacy-policy");
  await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "404 Page Not Found", level: 1 })).toBeVisible();

  // The administrator's log viewer.
  await signInWithToken(page, admin.token, "/admin/logs");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  expect(await watch.violations()).toEqual([]);
  expect(watch.policyErrors()).toEqual([]);
});

test("the policy blocks inline script and framing (the listener sees it)", async ({
  page,
  signedInUser: _,
}) => {
  const watch = await watchPolicy(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  const ran = await page.evaluate(() => {
    const w = window as unknown as { __injected?: boolean };
    const s = document.createElement("script");
    s.textContent = "window.__injected = true";
    document.body.append(s);
    return w.__injected === true;
  });
  expect(ran).toBe(false);
  await expect
    .poll(async () => (await watch.violations()).map((v) => v.directive))
    .toContain("script-src-elem");

  const res = await page.request.get("/");
  expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});

test("changing the email address asks for the current password", async ({
  page,
  signedInUser: user,
  accountPage,
  shell,
}) => {
  await accountPage.goto();
  const password = page.getByLabel("Current password (needed to change your email)");
  await expect(password).toHaveCount(0);
  await accountPage.email.fill(`moved-${user.email}`);
  await expect(password).toBeVisible();

  await password.fill("not-my-password");
  await accountPage.updateProfileButton.click();
  await shell.expectToast("Current password is incorrect. Your email address was not changed.");

  await password.fill(user.password);
  await accountPage.updateProfileButton.click();
  await shell.expectToast("Profile updated");
  await expect(password).toHaveCount(0);
  await shell.expectUserMenuShows(user.displayname, `moved-${user.email}`);
});
