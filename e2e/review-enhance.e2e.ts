/**
 * AI help with a review (docs/behaviour.md#states-and-transitions, docs/messages.md) in the browser, against the app's real enhancement endpoint
 * and the fake OpenAI-compatible server that e2e/support/server.ts starts beside it. The fake's
 * answer is picked by [fake:...] markers in the text typed (test/support/fake-openai.ts).
 */
import type { APIRequestContext } from "@playwright/test";
import type { ReviewSettings } from "../src/contract/constants.ts";
import { FAKE_SUBJECT, FAKE_TEXT } from "../test/support/fake-openai.ts";
import { EnhanceDialog } from "./pages/EnhanceDialog.ts";
import { ReviewSettingsTab } from "./pages/ReviewSettingsTab.ts";
import {
  test as base,
  createOrderApi,
  expect,
  getOrderApi,
  orderNumber,
} from "./support/orders.ts";

const test = base.extend<{ enhance: EnhanceDialog; reviewSettings: ReviewSettingsTab }>({
  enhance: async ({ page }, use) => use(new EnhanceDialog(page)),
  reviewSettings: async ({ page }, use) => use(new ReviewSettingsTab(page)),
});

const TYPED = "i bougth this bord and its realy big, it dont slide on the counter";
/** A tag no other run of the fake's "first N times" counters has seen. */
const tag = () => `t${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

async function saveSettings(
  request: APIRequestContext,
  token: string,
  changes: Partial<ReviewSettings>,
) {
  const res = await request.put("/api/user/review-settings", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      targetWordCount: 150,
      aiEditingOption: "Improve Writing",
      toneAllocation: {
        humorous: 0,
        professional: 50,
        friendly: 50,
        concise: 0,
        encouraging: 0,
        formal: 0,
      },
      autoGenerateSubject: false,
      ...changes,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

const receivedOrder = (
  request: APIRequestContext,
  token: string,
  status: "Received" | "Review Rejected" = "Received",
) =>
  createOrderApi(request, token, {
    productname: "Bamboo Cutting Board, Large",
    asin: "B0ENHANCE1",
    amazonordernumber: orderNumber(),
    status,
  });

test("Improve Writing from the settings tab: Enhance the text, see the answer, Accept it, save", async ({
  page,
  request,
  signedInUser: user,
  reviewSettings: rs,
  editOrder,
  enhance,
}) => {
  // The reviewer opts in on the Review Settings tab.
  await rs.goto();
  await rs.aiOption.selectOption("Improve Writing");
  await rs.autoSubject.check();
  await rs.save.click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  const order = await receivedOrder(request, user.token);
  await editOrder.goto(order.orderid, "/orders", "review");
  await expect(editOrder.reviewTab).toHaveAttribute("aria-selected", "true");

  // Both buttons are there, disabled while their field is empty.
  await expect(enhance.enhanceSubject).toBeDisabled();
  await expect(enhance.enhanceText).toBeDisabled();
  await editOrder.text.fill(TYPED);
  await expect(enhance.enhanceText).toBeEnabled();
  await expect(enhance.enhanceSubject).toBeDisabled();
  await editOrder.panel.screenshot({ path: test.info().outputPath("review-section.png") });

  await enhance.enhanceText.click();
  await expect(enhance.dialog).toBeVisible();
  await expect(enhance.mode).toHaveText("Improve Writing");
  // It says what leaves the server: no subject was typed, so only the name and the text.
  await expect(enhance.privacy).toHaveText(
    "Sent to the AI server configured for this Grapevine: the product name and the review text, nothing else.",
  );
  await expect(enhance.enhancedText).toHaveText(FAKE_TEXT);
  // Auto-generate subject is on: a subject was written from the text.
  await expect(enhance.enhancedSubject).toHaveText(FAKE_SUBJECT);
  await expect(enhance.dialog.getByRole("region", { name: "Review text" })).toContainText(TYPED);
  await page.screenshot({ path: test.info().outputPath("enhance-dialog.png") });

  await enhance.accept.click();
  await expect(enhance.dialog).toBeHidden();
  await expect(editOrder.text).toHaveValue(FAKE_TEXT);
  await expect(editOrder.subject).toHaveValue(FAKE_SUBJECT);

  await editOrder.save.click();
  await expect(page.getByText("Order updated successfully")).toBeVisible();
  const saved = await getOrderApi(request, user.token, order.orderid);
  expect(saved.reviewtext).toBe(FAKE_TEXT);
  expect(saved.reviewsubject).toBe(FAKE_SUBJECT);
});

test("an error, then Retry succeeds; Cancel keeps the reviewer's own words", async ({
  request,
  signedInUser: user,
  editOrder,
  enhance,
}) => {
  await saveSettings(request, user.token, { aiEditingOption: "Grammar & Spelling" });
  const order = await receivedOrder(request, user.token);
  await editOrder.goto(order.orderid, "/", "review");

  // The AI server answers 429 (retry-after 17) the first time only.
  const mine = `${TYPED} [fake:429*1#${tag()}]`;
  await editOrder.text.fill(mine);
  await enhance.enhanceText.click();
  await expect(enhance.mode).toHaveText("Grammar & Spelling");
  await expect(enhance.error).toHaveText(
    "Too many requests. Please wait 17 seconds and try again.",
  );
  await expect(enhance.accept).toHaveCount(0);

  await enhance.retry.click();
  await expect(enhance.enhancedText).toHaveText(FAKE_TEXT);
  // Grammar only, auto-generate off: no subject.
  await expect(enhance.enhancedSubject).toHaveCount(0);
  await expect(enhance.dialog).toContainText("Retries used: 1 of 3");

  await enhance.cancel.click();
  await expect(enhance.dialog).toBeHidden();
  await expect(editOrder.text).toHaveValue(mine);
});

test("three retries, then the retry-limit notice; an empty answer says so", async ({
  page,
  request,
  signedInUser: user,
  editOrder,
  enhance,
}) => {
  await saveSettings(request, user.token, {});
  const order = await receivedOrder(request, user.token, "Review Rejected");
  await editOrder.goto(order.orderid, "/", "review");

  await editOrder.text.fill(`${TYPED} [fake:500]`);
  await enhance.enhanceText.click();
  for (let i = 1; i <= 3; i++) {
    await expect(enhance.error).toHaveText(
      "Enhancement temporarily unavailable. Please try again.",
    );
    await enhance.retry.click();
  }
  await expect(enhance.error).toContainText(
    "You've reached the retry limit for this enhancement. Please try again later or check your content for any issues.",
  );
  await expect(enhance.retry).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("enhance-retry-limit.png") });
  await enhance.cancel.click();

  // The subject alone, answered with nothing.
  await editOrder.text.fill("");
  await editOrder.subject.fill("great bord [fake:empty]");
  await enhance.enhanceSubject.click();
  await expect(enhance.error).toHaveText("No enhanced content received.");
  await expect(enhance.privacy).toContainText("the product name and the subject, nothing else.");
  await enhance.cancel.click();
  await expect(editOrder.subject).toHaveValue("great bord [fake:empty]");
});

test("Enhance is offered only with an AI option and in Received or Review Rejected", async ({
  request,
  signedInUser: user,
  editOrder,
  enhance,
}) => {
  // Defaults: AI editing None → no buttons.
  const order = await receivedOrder(request, user.token);
  await editOrder.goto(order.orderid, "/", "review");
  await editOrder.text.fill(TYPED);
  await expect(editOrder.copySubject).toBeVisible();
  await expect(enhance.enhanceText).toHaveCount(0);
  await expect(enhance.enhanceSubject).toHaveCount(0);

  await saveSettings(request, user.token, {});
  await editOrder.goto(order.orderid, "/", "review");
  await expect(enhance.enhanceText).toBeVisible();
  // Another status on the form hides them (the status is chosen on the Product tab).
  await editOrder.openTab("Product");
  await editOrder.status.selectOption("Review Submitted");
  await editOrder.openTab("Review");
  await expect(editOrder.markApproved).toBeVisible();
  await expect(enhance.enhanceText).toHaveCount(0);
});

test("with no AI server configured, the buttons stay disabled and say why", async ({
  page,
  request,
  signedInUser: user,
  editOrder,
  enhance,
}) => {
  // This run's server has an AI server; GET /api/config is answered as one without it would be.
  await page.route("**/api/config", async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), aiAvailable: false } });
  });
  await saveSettings(request, user.token, {});
  const order = await receivedOrder(request, user.token);
  await editOrder.goto(order.orderid, "/", "review");
  await editOrder.text.fill(TYPED);
  await expect(enhance.unavailableNote).toBeVisible();
  await expect(enhance.enhanceText).toBeDisabled();
  await expect(enhance.enhanceText).toHaveAccessibleDescription(/AI help is not set up/);
});
