/**
 * Review media in the browser: upload two photos through the picker (progress items, thumbnails
 * loaded with the media token), a refused file with the spec's message, reorder by keyboard and
 * by dragging, remove one; the server's list follows every step.
 */

import { png } from "../test/support/media-files.ts";
import { ReviewMediaArea } from "./pages/ReviewMediaArea.ts";
import { createOrderApi, expect, getOrderApi, test } from "./support/orders.ts";

const photo = (name: string, width: number, from: [number, number, number]) => ({
  name,
  mimeType: "image/png",
  buffer: Buffer.from(png(width, 40, from, [250, 250, 250])),
});

test("upload two photos, reorder them, remove one", async ({
  page,
  request,
  signedInUser: user,
  shell,
}) => {
  const order = await createOrderApi(request, user.token, {
    productname: "Travel Kettle",
    asin: "B0KETTLE01",
    status: "Received",
  });
  await page.goto(`/orders/${order.orderid}/edit?section=review`);
  const media = new ReviewMediaArea(page);
  await expect(media.chooseFiles).toBeVisible();

  // A file that is not a picture is refused before anything is sent.
  await media.upload([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hi") }]);
  await expect(media.refusal).toHaveText("Only image and video files are allowed");

  // Two photos: progress items, then thumbnails in the order chosen.
  await media.upload([
    photo("wide.png", 80, [124, 58, 237]),
    photo("narrow.png", 50, [16, 185, 129]),
  ]);
  await expect(media.stored).toHaveCount(2, { timeout: 15_000 });
  await expect(media.progress("wide.png")).toHaveCount(0, { timeout: 5_000 });
  await expect.poll(() => media.widths()).toEqual([80, 50]);
  const uploaded = (await getOrderApi(request, user.token, order.orderid)).reviewimages;
  expect(uploaded).toHaveLength(2);

  // Reorder by keyboard: focus "move later" on the first and press Enter.
  await media.moveLater(1).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => media.widths()).toEqual([50, 80]);
  // Focus followed the moved photo (now second): its "move earlier" button.
  await expect(media.moveEarlier(2)).toBeFocused();
  await expect
    .poll(async () => (await getOrderApi(request, user.token, order.orderid)).reviewimages)
    .toEqual([uploaded[1], uploaded[0]]);

  // Reorder by mouse: drag the second photo onto the first.
  await media.image(2).dragTo(media.image(1));
  await expect.poll(() => media.widths()).toEqual([80, 50]);
  await expect
    .poll(async () => (await getOrderApi(request, user.token, order.orderid)).reviewimages)
    .toEqual(uploaded);

  // Remove the first: asked first; Cancel keeps it.
  await media.remove(1).click();
  await media.confirmDialog(1).getByRole("button", { name: "Cancel" }).click();
  await expect(media.confirmDialog(1)).toHaveCount(0);
  await expect(media.stored).toHaveCount(2);
  await media.remove(1).click();
  await media.confirmDialog(1).getByRole("button", { name: "Delete" }).click();
  await shell.expectToast("Image deleted");
  await expect(media.stored).toHaveCount(1);
  await expect.poll(() => media.widths()).toEqual([50]);
  expect((await getOrderApi(request, user.token, order.orderid)).reviewimages).toEqual([
    uploaded[1],
  ]);
  // The stored file is gone from the server too.
  const gone = await request.get(uploaded[0]!, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  expect(gone.status()).toBe(404);
});

test("stored photos load with the token, never a 401 first; a refused file offers no Retry", async ({
  page,
  request,
  signedInUser: user,
}) => {
  const order = await createOrderApi(request, user.token, {
    productname: "Desk Lamp",
    asin: "B0LAMP0001",
    status: "Received",
  });
  const stored = await request.post(`/api/orders/${order.orderid}/review/images`, {
    headers: { Authorization: `Bearer ${user.token}` },
    multipart: { images: photo("lamp.png", 60, [200, 80, 20]) },
  });
  expect(stored.status()).toBe(200);
  // Every answer for a stored media file while the page opens.
  const statuses: number[] = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname.includes("/media/")) statuses.push(r.status());
  });
  await page.goto(`/orders/${order.orderid}/edit?section=review`);
  const media = new ReviewMediaArea(page);
  await expect.poll(() => media.widths()).toEqual([60]);
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s === 401)).toEqual([]);

  // A file the server refuses (not a picture inside) can never succeed: no Retry.
  await media.upload([
    { name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") },
  ]);
  await expect(media.region.getByText("Upload failed", { exact: true })).toBeVisible();
  await expect(media.dismiss("fake.png")).toBeVisible();
  await expect(media.retry()).toHaveCount(0);
});
