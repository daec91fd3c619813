/** /vine: the standing cards, ETV per year, the Itemized Report import, settings and definitions. */
import { expect, type Locator, type Page } from "@playwright/test";

export class VinePage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly rateCard: Locator;
  readonly gauge: Locator;
  readonly evaluationCard: Locator;
  readonly todayCard: Locator;
  readonly awaitingCard: Locator;
  readonly etv: Locator;
  readonly importFile: Locator;
  readonly importButton: Locator;
  readonly importSummary: Locator;
  readonly importError: Locator;
  readonly settings: Locator;
  readonly definitions: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.main = main;
    this.heading = main.getByRole("heading", { name: "Vine", level: 1 });
    const card = (title: string) =>
      main
        .locator("article")
        .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
    this.rateCard = card("Review rate");
    this.gauge = this.rateCard.getByRole("img");
    this.evaluationCard = card("Evaluation");
    this.todayCard = card("Today");
    this.awaitingCard = card("Awaiting approval");
    this.etv = main.getByRole("region", { name: "ETV for taxes" });
    this.importFile = main.getByLabel("Itemized Report file (.xlsx or .csv)");
    this.importButton = main.getByRole("button", { name: "Import Report" });
    this.importSummary = main.locator(".vine-import-summary");
    this.importError = main.getByRole("alert");
    this.settings = main.locator("details").filter({ hasText: "Vine settings" });
    this.definitions = main.locator("details").filter({ hasText: "How this is counted" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/vine");
    await expect(this.heading).toBeVisible();
  }

  etvYear(year: number, currency = "USD"): Locator {
    return this.etv
      .locator("article")
      .filter({ has: this.page.getByRole("heading", { name: `${year} ${currency}` }) });
  }
}
