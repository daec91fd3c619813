/** Account Settings → Review Settings, and the Edit Order word counter that follows its target. */
import { ReviewSettingsTab } from "./pages/ReviewSettingsTab.ts";
import { test as base, createOrderApi, expect, orderNumber } from "./support/orders.ts";

const test = base.extend<{ reviewSettings: ReviewSettingsTab }>({
  reviewSettings: async ({ page }, use) => use(new ReviewSettingsTab(page)),
});

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

test("change length, AI option, tones and subject; save; reload shows them; Edit Order counts to the target", async ({
  page,
  request,
  signedInUser: user,
  reviewSettings: rs,
  shell,
  editOrder,
}) => {
  await rs.goto();
  // The defaults: 150 words, AI editing None (no tone sliders), nothing to save or reset.
  await expect(rs.wordCount).toHaveValue("150");
  await expect(rs.wordCount).toHaveAttribute("aria-valuetext", "150 words");
  await expect(rs.wordCountValue).toHaveText("150 words");
  await expect(rs.aiOption).toHaveValue("None");
  await expect(rs.toneMix).toHaveCount(0);
  await expect(rs.autoSubject).not.toBeChecked();
  await expect(rs.save).toBeDisabled();
  await expect(rs.reset).toBeDisabled();

  // Any change makes the form dirty.
  await rs.setWordCount(200);
  await expect(rs.wordCountValue).toHaveText("200 words");
  await expect(rs.wordCount).toHaveAttribute("aria-valuetext", "200 words");
  await expect(rs.save).toBeEnabled();
  await expect(rs.reset).toBeEnabled();

  // The six tone sliders appear only for Improve Writing.
  await rs.aiOption.selectOption("Grammar & Spelling");
  await expect(rs.toneMix).toHaveCount(0);
  await rs.aiOption.selectOption("Improve Writing");
  await expect(rs.toneMix).toBeVisible();
  await expect(rs.toneMix.getByRole("slider")).toHaveCount(6);
  await expect(rs.tone("humorous")).toHaveValue("100");
  await expect(rs.toneRow("humorous")).toContainText("✓");
  await expect(rs.toneRow("professional")).not.toContainText("✓");

  // The only tone above 0 cannot give its points to a tone at 0: it stays at 100.
  await rs.tone("humorous").focus();
  await rs.tone("humorous").press("ArrowLeft");
  await expect(rs.tone("humorous")).toHaveValue("100");

  // Raising a tone takes from the others above 0, least recently changed first.
  await rs.setTone("professional", 30);
  await rs.setTone("friendly", 20);
  expect(await rs.toneValues()).toEqual({
    humorous: 50,
    professional: 30,
    friendly: 20,
    concise: 0,
    encouraging: 0,
    formal: 0,
  });
  // Lowering one gives its points to the least recently changed tone above 0 (humorous).
  await rs.setTone("professional", 25);
  expect(await rs.toneValues()).toMatchObject({ humorous: 55, professional: 25, friendly: 20 });
  await expect(rs.tone("professional")).toHaveAttribute("aria-valuetext", "25 percent");
  for (const t of ["humorous", "professional", "friendly"] as const) {
    await expect(rs.toneRow(t)).toContainText("✓");
  }
  for (const t of ["concise", "encouraging", "formal"] as const) {
    await expect(rs.toneRow(t)).not.toContainText("✓");
  }

  await rs.autoSubject.check();
  await rs.save.click();
  await shell.expectToast("Settings saved");
  // Saving clears the dirty flag.
  await expect(rs.save).toBeDisabled();
  await expect(rs.reset).toBeDisabled();

  await page.reload();
  await rs.expectLoaded();
  await expect(rs.wordCount).toHaveValue("200");
  await expect(rs.aiOption).toHaveValue("Improve Writing");
  expect(await rs.toneValues()).toEqual({
    humorous: 55,
    professional: 25,
    friendly: 20,
    concise: 0,
    encouraging: 0,
    formal: 0,
  });
  await expect(rs.autoSubject).toBeChecked();

  // Edit Order: the counter measures against the saved 200, not the default 150.
  const order = await createOrderApi(request, user.token, {
    productname: "Bamboo Cutting Boards",
    asin: "B0REVIEW01",
    amazonordernumber: orderNumber(),
    status: "Received",
    reviewtext: words(200),
  });
  await editOrder.goto(order.orderid, "/", "review");
  await expect(editOrder.wordCount).toHaveText("200 words (target 200)");
  await expect(editOrder.wordCount).toHaveClass(/word-good/);
  // 240 words: 20 % over the target is yellow; 270 (35 %) is red; 180 (10 % under) is green.
  await editOrder.text.fill(words(240));
  await expect(editOrder.wordCount).toHaveClass(/word-fair/);
  await editOrder.text.fill(words(270));
  await expect(editOrder.wordCount).toHaveClass(/word-poor/);
  await editOrder.text.fill(words(180));
  await expect(editOrder.wordCount).toHaveText("180 words (target 200)");
  await expect(editOrder.wordCount).toHaveClass(/word-good/);
});

test("Reset Changes restores the server's values", async ({
  signedInUser: _user,
  reviewSettings: rs,
  shell,
}) => {
  await rs.goto();
  await rs.setWordCount(300);
  await rs.aiOption.selectOption("Improve Writing");
  await rs.setTone("concise", 40);
  await rs.save.click();
  await shell.expectToast("Settings saved");

  await rs.setWordCount(100);
  await rs.setTone("formal", 60);
  await rs.aiOption.selectOption("None");
  await rs.autoSubject.check();
  await expect(rs.reset).toBeEnabled();
  await rs.reset.click();

  await expect(rs.wordCount).toHaveValue("300");
  await expect(rs.aiOption).toHaveValue("Improve Writing");
  await expect(rs.autoSubject).not.toBeChecked();
  expect(await rs.toneValues()).toEqual({
    humorous: 60,
    professional: 0,
    friendly: 0,
    concise: 40,
    encouraging: 0,
    formal: 0,
  });
  await expect(rs.reset).toBeDisabled();
  await expect(rs.save).toBeDisabled();
});
