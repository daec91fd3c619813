/** A phone-sized window (390 x 800): screens fit without sideways scrolling. */
import { expect, test } from "./support/fixtures.ts";

test.use({ viewport: { width: 390, height: 800 } });

test("the login screen fits a phone", async ({ loginPage, shell }) => {
  await loginPage.goto();
  await expect(loginPage.signInButton).toBeInViewport();
  await shell.expectNoHorizontalScroll();

  await loginPage.toRegister.click();
  await expect(loginPage.registerHeading).toBeVisible();
  await shell.expectNoHorizontalScroll();
});

test("the account page fits a phone and its tab shows the short label", async ({
  page,
  signedInUser,
  accountPage,
  shell,
}) => {
  await accountPage.goto();
  await expect(accountPage.email).toHaveValue(signedInUser.email);
  await shell.expectNoHorizontalScroll();
  await expect(accountPage.profileTab).toHaveText("Profile", { useInnerText: true });
  // All five tabs in view, each label on one line (none broken mid-word, no sideways strip).
  const strip = await page.getByRole("tablist", { name: "Account sections" }).evaluate((el) => ({
    overflow: el.scrollWidth - el.clientWidth,
    // An inline label broken over two lines has two client rects.
    lines: [...el.querySelectorAll('[role="tab"] .label-short')].map(
      (t) => t.getClientRects().length,
    ),
  }));
  expect(strip.overflow).toBeLessThanOrEqual(0);
  expect(strip.lines).toEqual([1, 1, 1, 1, 1]);
});

test("on a phone the tab's accessible name is its short label", async ({
  page,
  signedInUser: _user,
  accountPage,
}) => {
  // At this width the long label is hidden, so the tab's accessible name is its short label.
  await accountPage.goto();
  await expect(page.getByRole("tab", { name: "Profile", exact: true })).toBeVisible();
});
