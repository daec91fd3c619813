/** The media area of Edit Order's review section (web/pages/edit-order/media/MediaArea.tsx). */
import type { Locator, Page } from "@playwright/test";

export class ReviewMediaArea {
  readonly region: Locator;
  readonly chooseFiles: Locator;
  readonly input: Locator;
  readonly list: Locator;
  readonly stored: Locator;
  readonly refusal: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole("region", { name: "Images and video" });
    this.chooseFiles = this.region.getByRole("button", { name: "Choose files" });
    this.input = this.region.locator('input[type="file"]');
    this.list = this.region.getByRole("list", { name: "Review images and video" });
    this.stored = this.list.getByRole("img", { name: /^Review image \d+$/ });
    this.refusal = this.region.getByRole("alert");
  }

  image(n: number): Locator {
    return this.list.getByRole("img", { name: `Review image ${n}`, exact: true });
  }
  moveLater(n: number): Locator {
    return this.region.getByRole("button", { name: `Move image ${n} later` });
  }
  moveEarlier(n: number): Locator {
    return this.region.getByRole("button", { name: `Move image ${n} earlier` });
  }
  remove(n: number): Locator {
    return this.region.getByRole("button", { name: `Remove image ${n}` });
  }
  /** The "Delete image N" confirmation that Remove opens. */
  confirmDialog(n: number): Locator {
    return this.page.getByRole("dialog", { name: `Delete image ${n}` });
  }
  retry(): Locator {
    return this.region.getByRole("button", { name: "Retry" });
  }
  dismiss(name: string): Locator {
    return this.region.getByRole("button", { name: `Dismiss ${name}` });
  }
  progress(name: string): Locator {
    return this.region.getByRole("progressbar", { name: `Uploading ${name}` });
  }

  async upload(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    await this.input.setInputFiles(files);
  }

  /** The natural width of each stored image, in list order: tells the test photos apart. */
  async widths(): Promise<number[]> {
    return this.stored.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
  }
}
