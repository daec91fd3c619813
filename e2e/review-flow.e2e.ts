/**
 * The whole review stage of one order, in the browser against the real server: upload two
 * photos, reorder them, remove one, enhance the text with the (fake) AI server and accept it, then
 * Mark Review Submitted, which needs a rating. Each step is checked where the reviewer would
 * notice it, and the order the server stored is checked at the end.
 */

import type { Page } from "@playwright/test";
import { FAKE_TEXT } from "../test/support/fake-openai.ts";
import { EnhanceDialog } from "./pages/EnhanceDialog.ts";
import {
  test as base,
  createOrderApi,
  expect,
  getOrderApi,
  orderNumber,
} from "./support/orders.ts";

/** A real photo-like image drawn by the browser's canvas (the runner is Node: no Bun helpers). */
async function photo(page: Page, type: "image/jpeg" | "image/png", colour: string) {
  const dataUrl = await page.evaluate(
    ([t, c]) => {
      const canvas = document.createElement("canvas");
      canvas.width = 160;
      canvas.height = 120;
      const g = canvas.getContext("2d")!;
      g.fillStyle = c;
      g.fillRect(0, 0, 160, 120);
      g.fillStyle = "#fff";
      g.fillRect(40, 30, 80, 60);
      return canvas.toDataURL(t, 0.9);
    },
    [type, colour] as const,
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

const test = base.extend<{ enhance: EnhanceDialog }>({
  enhance: async ({ page }, use) => use(new EnhanceDialog(page)),
});

test("upload two photos, reorder, remove one, enhance and accept the text, submit the review", async ({
  page,
  request,
  signedInUser: user,
  editOrder,
  enhance,
}) => {
  const auth = { Authorization: `Bearer ${user.token}` };
  const settings = await request.put("/api/user/review-settings", {
    headers: auth,
    data: {
      targetWordCount: 100,
      aiEditingOption: "Improve Writing",
      toneAllocation: {
        humorous: 0,
        professional: 0,
        friendly: 100,
        concise: 0,
        encouraging: 0,
        formal: 0,
      },
      autoGenerateSubject: false,
    },
  });
  expect(settings.status()).toBe(200);
  const order = await createOrderApi(request, user.token, {
    productname: "Stainless Steel Water Bottle",
    asin: "B0FLOW0001",
    amazonordernumber: orderNumber(),
    status: "Received",
  });
  // From the orders list, so Mark Review Submitted returns there.
  await editOrder.goto(order.orderid, "/orders", "review");

  const media = page.getByRole("region", { name: "Images and video" });
  const list = media.getByRole("list", { name: "Review images and video" });
  const stored = async () => (await getOrderApi(request, user.token, order.orderid)).reviewimages;

  // 1. Two photos through the picker.
  await media.getByLabel("Choose images or video").setInputFiles([
    {
      name: "front.jpg",
      mimeType: "image/jpeg",
      buffer: await photo(page, "image/jpeg", "#7c3aed"),
    },
    { name: "side.png", mimeType: "image/png", buffer: await photo(page, "image/png", "#10b981") },
  ]);
  await expect(list.getByRole("img", { name: /^Review image \d$/ })).toHaveCount(2);
  await expect(media.getByText("2/10 files")).toBeVisible();
  // The upload items leave once done.
  await expect(list.getByRole("progressbar")).toHaveCount(0, { timeout: 10_000 });
  const [first, second] = await stored();
  expect(first).toBeTruthy();
  expect(second).toBeTruthy();
  // The thumbnails are real images the browser could decode.
  for (const img of await list.getByRole("img").all()) {
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }

  // 2. Reorder: the first moves later; the server keeps the new order.
  await list.getByRole("button", { name: "Move image 1 later" }).click();
  await expect.poll(stored).toEqual([second, first]);

  // 3. Remove the one now second (the first upload).
  await list.getByRole("button", { name: "Remove image 2" }).click();
  // Removing asks first.
  await page
    .getByRole("dialog", { name: "Delete image 2" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByText("Image deleted")).toBeVisible();
  await expect(list.getByRole("img", { name: /^Review image \d$/ })).toHaveCount(1);
  await expect.poll(stored).toEqual([second]);

  // 4. Write, enhance, accept.
  await editOrder.text.fill("this bottle keeps water cold all day and dont leak in my bag");
  await enhance.enhanceText.click();
  await expect(enhance.enhancedText).toHaveText(FAKE_TEXT);
  await page.screenshot({ path: test.info().outputPath("flow-enhance.png") });
  await enhance.accept.click();
  await expect(editOrder.text).toHaveValue(FAKE_TEXT);
  await page.screenshot({
    path: test.info().outputPath("flow-review-section.png"),
    fullPage: true,
  });

  // 5. Submitting needs a rating first.
  await editOrder.markSubmitted.click();
  await expect(page.getByText("Rating Required")).toBeVisible();
  await editOrder.star(5).check();
  await editOrder.markSubmitted.click();
  await expect(page).toHaveURL(/\/orders(\?|$)/);

  const saved = await getOrderApi(request, user.token, order.orderid);
  expect(saved.status).toBe("Review Submitted");
  expect(saved.rating).toBe(5);
  expect(saved.reviewtext).toBe(FAKE_TEXT);
  expect(saved.reviewimages).toEqual([second]);
  expect(saved.datereviewsubmitted).toBeTruthy();
});
